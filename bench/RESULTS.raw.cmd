# build/rel/bench/yardstick memcpy 1 4 16 64
# build/rel/bench/yardstick memcpy 1 4 16 64
# build/rel/bench/yardstick memcpy 1 4 16 64
# build/rel/bench/yardstick memcpy2 1 64
# build/rel/bench/yardstick memcpy2 1 64
# build/rel/bench/yardstick memcpy2 1 64
# build/rel/bench/yardstick pvm 1 4 16 64
# build/rel/bench/yardstick pvm 1 4 16 64
# build/rel/bench/yardstick pvm 1 4 16 64
# build/rel/bench/yardstick flag
# build/rel/bench/yardstick flag
# build/rel/bench/yardstick flag
# build/rel/bench/yardstick futex
# build/rel/bench/yardstick futex
# build/rel/bench/yardstick futex
# build/rel/bench/yardstick yield 4
# build/rel/bench/yardstick yield 4
# build/rel/bench/yardstick yield 4
# build/rel/bench/yardstick yield 8
# build/rel/bench/yardstick yield 8
# build/rel/bench/yardstick yield 8
# bin/bsprun -n 1 build/rel/bench/empty
# bin/bsprun -n 1 build/rel/bench/empty
# bin/bsprun -n 1 build/rel/bench/empty
# bin/bsprun -n 2 build/rel/bench/empty
# bin/bsprun -n 2 build/rel/bench/empty
# bin/bsprun -n 2 build/rel/bench/empty
# bin/bsprun -n 4 build/rel/bench/empty
# bin/bsprun -n 4 build/rel/bench/empty
# bin/bsprun -n 4 build/rel/bench/empty
# bin/bsprun -n 8 build/rel/bench/empty
# bin/bsprun -n 8 build/rel/bench/empty
# bin/bsprun -n 8 build/rel/bench/empty
# bin/bsprun -n 16 build/rel/bench/empty
# bin/bsprun -n 16 build/rel/bench/empty
# bin/bsprun -n 16 build/rel/bench/empty
# bin/bsprun -n 1 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 1 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 1 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# bin/bsprun -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# bin/bsprun -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# bin/bsprun -n 4 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 4 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 4 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 8 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 8 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 8 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 16 build/rel/bench/puts 16 100 1000 10000 100000
# load before part 2: 31.62 56.73 39.61 19/193 3412
# bin/bsprun -n 1 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/send 100000 move
# bin/bsprun -n 1 build/rel/bench/send 100000 move
# bin/bsprun -n 1 build/rel/bench/send 100000 move
# bin/bsprun -n 1 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 1 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 1 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 2 build/rel/bench/send 100000 move
# bin/bsprun -n 2 build/rel/bench/send 100000 move
# bin/bsprun -n 2 build/rel/bench/send 100000 move
# bin/bsprun -n 2 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 2 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 2 build/rel/bench/send 100000 hpmove
# mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mpi/peers 16 100 1000 10000 100000 1000000
# mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mpi/peers 16 100 1000 10000 100000 1000000
# mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mpi/peers 16 100 1000 10000 100000 1000000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/bulk put 1 64
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/bulk put 1 64
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/bulk put 1 64
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/send 100000 move
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/send 100000 move
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/send 100000 move
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 2
# build/rel/bench/begin 2
# build/rel/bench/begin 2
# bin/bsprun -n 2 build/rel/bench/memory 1024 1024
bspbench: warning: the timings are too noisy to fit (the line explains 27% of their variance, g = 2.3800 us, l = 38.463 us, blocks of one h differ by up to 55488%): g and l are unreliable; run on an idle machine, or with more blocks (-b) and supersteps per block (-i)
bspbench: warning: the timings are too noisy to fit (the line explains 0% of their variance, g = -1.6619 us, l = 17381.126 us, blocks of one h differ by up to 24440%): g and l are unreliable; run on an idle machine, or with more blocks (-b) and supersteps per block (-i)
# load after part 2: 57.07 56.59 49.03 57/332 10923
FIN
