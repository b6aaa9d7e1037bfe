# [yard] build/rel/bench/yardstick memcpy 1 64
# [yard] build/rel/bench/yardstick memcpy 1 64
# [yard] build/rel/bench/yardstick memcpy 1 64
# [ss] bin/bsprun -n 2 build/rel/bench/empty
# [ss] bin/bsprun -n 2 build/rel/bench/empty
# [ss] bin/bsprun -n 2 build/rel/bench/empty
# [ss] bin/bsprun -n 2 build/rel/bench/puts 16 1000
# [ss] bin/bsprun -n 2 build/rel/bench/puts 16 1000
# [ss] bin/bsprun -n 2 build/rel/bench/puts 16 1000
# [ss] bin/bsprun -n 2 build/rel/bench/bulk put 1 64
# [ss] bin/bsprun -n 2 build/rel/bench/bulk put 1 64
# [ss] bin/bsprun -n 2 build/rel/bench/bulk put 1 64
# [ss] bin/bsprun -n 2 build/rel/bench/bulk hpput 1 64
# [ss] bin/bsprun -n 2 build/rel/bench/bulk hpput 1 64
# [ss] bin/bsprun -n 2 build/rel/bench/bulk hpput 1 64
# [ss] bin/bsprun -n 2 build/rel/bench/send 100000 move
# [ss] bin/bsprun -n 2 build/rel/bench/send 100000 move
# [ss] bin/bsprun -n 2 build/rel/bench/send 100000 move
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_empty
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_empty
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_empty
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_puts 16 1000
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_puts 16 1000
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_puts 16 1000
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_bulk put 1 64
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_bulk put 1 64
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_bulk put 1 64
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_bulk hpput 1 64
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_bulk hpput 1 64
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_bulk hpput 1 64
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_send 100000 move
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_send 100000 move
# [mc] env SUPERSTEP_BENCH_NPROCS=2 /tmp/tmp.PBcpcbmSH1/mc_send 100000 move
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [ss] bin/bsprun -n 4 build/rel/bench/empty
# [ss] bin/bsprun -n 4 build/rel/bench/empty
# [ss] bin/bsprun -n 4 build/rel/bench/empty
# [ss] bin/bsprun -n 4 build/rel/bench/puts 16 1000
# [ss] bin/bsprun -n 4 build/rel/bench/puts 16 1000
# [ss] bin/bsprun -n 4 build/rel/bench/puts 16 1000
# [ss] bin/bsprun -n 4 build/rel/bench/bulk put 1 64
# [ss] bin/bsprun -n 4 build/rel/bench/bulk put 1 64
# [ss] bin/bsprun -n 4 build/rel/bench/bulk put 1 64
# [ss] bin/bsprun -n 4 build/rel/bench/bulk hpput 1 64
# [ss] bin/bsprun -n 4 build/rel/bench/bulk hpput 1 64
# [ss] bin/bsprun -n 4 build/rel/bench/bulk hpput 1 64
# [ss] bin/bsprun -n 4 build/rel/bench/send 100000 move
# [ss] bin/bsprun -n 4 build/rel/bench/send 100000 move
# [ss] bin/bsprun -n 4 build/rel/bench/send 100000 move
# [mc] env SUPERSTEP_BENCH_NPROCS=4 /tmp/tmp.PBcpcbmSH1/mc_empty
Warning: 4 threads requested but only 2 available. If this was on purpose, please supply a proper manual affinity and increase the maximum threads usable by MulticoreBSP manually (see the documentation for details)
Warning: mcbsp_util_partition is asked to partition the machine into more threads (4) than are available (2). Several BSP processes may be pinned on the same hardware thread. If this behaviour was unintended, please correct the parameters of the (nested) call(s) to bsp_begin, or supply manual affinity options.
# [mc] env SUPERSTEP_BENCH_NPROCS=4 /tmp/tmp.PBcpcbmSH1/mc_empty
Warning: 4 threads requested but only 2 available. If this was on purpose, please supply a proper manual affinity and increase the maximum threads usable by MulticoreBSP manually (see the documentation for details)
Warning: mcbsp_util_partition is asked to partition the machine into more threads (4) than are available (2). Several BSP processes may be pinned on the same hardware thread. If this behaviour was unintended, please correct the parameters of the (nested) call(s) to bsp_begin, or supply manual affinity options.
# [mc] env SUPERSTEP_BENCH_NPROCS=4 /tmp/tmp.PBcpcbmSH1/mc_empty
Warning: 4 threads requested but only 2 available. If this was on purpose, please supply a proper manual affinity and increase the maximum threads usable by MulticoreBSP manually (see the documentation for details)
Warning: mcbsp_util_partition is asked to partition the machine into more threads (4) than are available (2). Several BSP processes may be pinned on the same hardware thread. If this behaviour was unintended, please correct the parameters of the (nested) call(s) to bsp_begin, or supply manual affinity options.
# [mc] env SUPERSTEP_BENCH_NPROCS=4 /tmp/tmp.PBcpcbmSH1/mc_puts 16 1000
Warning: 4 threads requested but only 2 available. If this was on purpose, please supply a proper manual affinity and increase the maximum threads usable by MulticoreBSP manually (see the documentation for details)
Warning: mcbsp_util_partition is asked to partition the machine into more threads (4) than are available (2). Several BSP processes may be pinned on the same hardware thread. If this behaviour was unintended, please correct the parameters of the (nested) call(s) to bsp_begin, or supply manual affinity options.
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [ss] bin/bsprun -n 8 build/rel/bench/empty
# [ss] bin/bsprun -n 8 build/rel/bench/empty
# [ss] bin/bsprun -n 8 build/rel/bench/empty
# [ss] bin/bsprun -n 8 build/rel/bench/puts 16 1000
# [ss] bin/bsprun -n 8 build/rel/bench/puts 16 1000
# [ss] bin/bsprun -n 8 build/rel/bench/puts 16 1000
# [ss] bin/bsprun -n 8 build/rel/bench/bulk put 1 64
# [ss] bin/bsprun -n 8 build/rel/bench/bulk put 1 64
# [ss] bin/bsprun -n 8 build/rel/bench/bulk put 1 64
# [ss] bin/bsprun -n 8 build/rel/bench/bulk hpput 1 64
# [ss] bin/bsprun -n 8 build/rel/bench/bulk hpput 1 64
# [ss] bin/bsprun -n 8 build/rel/bench/bulk hpput 1 64
# [ss] bin/bsprun -n 8 build/rel/bench/send 100000 move
# [ss] bin/bsprun -n 8 build/rel/bench/send 100000 move
# [ss] bin/bsprun -n 8 build/rel/bench/send 100000 move
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bm] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 8 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/empty
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/empty
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/empty
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/puts 16 1000
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/puts 16 1000
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/puts 16 1000
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/bulk put 1 64
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/bulk put 1 64
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/bulk put 1 64
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/bulk hpput 1 64
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/bulk hpput 1 64
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/bulk hpput 1 64
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/send 100000 move
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/send 100000 move
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/send 100000 move
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/empty
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/empty
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/empty
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/puts 16 1000
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/puts 16 1000
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/puts 16 1000
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/bulk put 1 64
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/bulk put 1 64
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/bulk put 1 64
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/bulk hpput 1 64
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/bulk hpput 1 64
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/bulk hpput 1 64
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/send 100000 move
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/send 100000 move
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/send 100000 move
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/empty
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/empty
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/empty
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/puts 16 1000
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/puts 16 1000
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/puts 16 1000
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/bulk put 1 64
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/bulk put 1 64
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/bulk put 1 64
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/bulk hpput 1 64
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/bulk hpput 1 64
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/bulk hpput 1 64
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/send 100000 move
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/send 100000 move
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/send 100000 move
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/empty
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/empty
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/empty
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/puts 16 1000
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/puts 16 1000
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/puts 16 1000
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/bulk put 1 64
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/bulk put 1 64
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/bulk put 1 64
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/bulk hpput 1 64
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/bulk hpput 1 64
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/bulk hpput 1 64
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/send 100000 move
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/send 100000 move
# [ssmpi] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root -n 4 build/rel/bench/send 100000 move
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/empty
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/empty
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/empty
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/puts 16 1000
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/puts 16 1000
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/puts 16 1000
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/bulk put 1 64
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/bulk put 1 64
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/bulk put 1 64
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/bulk hpput 1 64
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/bulk hpput 1 64
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/bulk hpput 1 64
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/send 100000 move
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/send 100000 move
# [ssmpitcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 build/rel/bench/send 100000 move
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bmtcp] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 4 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/empty
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/empty
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/empty
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/puts 16 1000
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/puts 16 1000
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/puts 16 1000
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/bulk put 1 64
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/bulk put 1 64
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/bulk put 1 64
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/bulk hpput 1 64
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/bulk hpput 1 64
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/bulk hpput 1 64
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/send 100000 move
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/send 100000 move
# [ssmpinb] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/send 100000 move
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_empty
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_puts 16 1000
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk put 1 64
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_bulk hpput 1 64
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [bmnb] env SUPERSTEP_BENCH_NOFLAG=1 mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 /tmp/tmp.PBcpcbmSH1/bm_send 100000 move
# [mp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mp_bench
# [mp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mp_bench
# [mp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mp_bench
# [plain] mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mpi/pingpong
# [plain] mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mpi/pingpong
# [plain] mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mpi/pingpong
# [mptcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/mp_bench
# [mptcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/mp_bench
# [mptcp] env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/mp_bench
# [plaintcp] mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/mpi/pingpong
# [plaintcp] mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/mpi/pingpong
# [plaintcp] mpirun -q --oversubscribe --allow-run-as-root --mca btl tcp,self --mca osc pt2pt -n 2 build/rel/bench/mpi/pingpong
