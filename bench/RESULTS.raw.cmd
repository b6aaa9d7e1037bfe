# build/rel/bench/yardstick memcpy 1 4 16 64
# build/rel/bench/yardstick memcpy 1 4 16 64
# build/rel/bench/yardstick memcpy 1 4 16 64
# build/rel/bench/yardstick memcpy 1 4 16 64
# build/rel/bench/yardstick memcpy 1 4 16 64
# build/rel/bench/yardstick memcpy2 1 64
# build/rel/bench/yardstick memcpy2 1 64
# build/rel/bench/yardstick memcpy2 1 64
# build/rel/bench/yardstick memcpy2 1 64
# build/rel/bench/yardstick memcpy2 1 64
# build/rel/bench/yardstick pvm 1 4 16 64
# build/rel/bench/yardstick pvm 1 4 16 64
# build/rel/bench/yardstick pvm 1 4 16 64
# build/rel/bench/yardstick pvm 1 4 16 64
# build/rel/bench/yardstick pvm 1 4 16 64
# build/rel/bench/yardstick flag
# build/rel/bench/yardstick flag
# build/rel/bench/yardstick flag
# build/rel/bench/yardstick flag
# build/rel/bench/yardstick flag
# build/rel/bench/yardstick futex
# build/rel/bench/yardstick futex
# build/rel/bench/yardstick futex
# build/rel/bench/yardstick futex
# build/rel/bench/yardstick futex
# build/rel/bench/yardstick yield 4
# build/rel/bench/yardstick yield 4
# build/rel/bench/yardstick yield 4
# build/rel/bench/yardstick yield 4
# build/rel/bench/yardstick yield 4
# build/rel/bench/yardstick yield 8
# build/rel/bench/yardstick yield 8
# build/rel/bench/yardstick yield 8
# build/rel/bench/yardstick yield 8
# build/rel/bench/yardstick yield 8
# bin/bsprun -n 1 build/rel/bench/empty
# bin/bsprun -n 1 build/rel/bench/empty
# bin/bsprun -n 1 build/rel/bench/empty
# bin/bsprun -n 1 build/rel/bench/empty
# bin/bsprun -n 1 build/rel/bench/empty
# bin/bsprun -n 2 build/rel/bench/empty
# bin/bsprun -n 2 build/rel/bench/empty
# bin/bsprun -n 2 build/rel/bench/empty
# bin/bsprun -n 2 build/rel/bench/empty
# bin/bsprun -n 2 build/rel/bench/empty
# bin/bsprun -n 4 build/rel/bench/empty
# bin/bsprun -n 4 build/rel/bench/empty
# bin/bsprun -n 4 build/rel/bench/empty
# bin/bsprun -n 4 build/rel/bench/empty
# bin/bsprun -n 4 build/rel/bench/empty
# bin/bsprun -n 8 build/rel/bench/empty
# bin/bsprun -n 8 build/rel/bench/empty
# bin/bsprun -n 8 build/rel/bench/empty
# bin/bsprun -n 8 build/rel/bench/empty
# bin/bsprun -n 8 build/rel/bench/empty
# bin/bsprun -n 16 build/rel/bench/empty
# bin/bsprun -n 16 build/rel/bench/empty
# bin/bsprun -n 16 build/rel/bench/empty
# bin/bsprun -n 16 build/rel/bench/empty
# bin/bsprun -n 16 build/rel/bench/empty
# bin/bsprun -n 1 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 1 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 1 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 1 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 1 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# bin/bsprun -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# bin/bsprun -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# bin/bsprun -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# bin/bsprun -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# bin/bsprun -n 4 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 4 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 4 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 4 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 4 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 8 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 8 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 8 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 8 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 8 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 16 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 16 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 16 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 16 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 16 build/rel/bench/puts 16 100 1000 10000 100000
# bin/bsprun -n 1 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk direct 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk direct 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk direct 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk direct 1 4 16 64
# bin/bsprun -n 1 build/rel/bench/bulk direct 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk put 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpput 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk hpget 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk direct 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk direct 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk direct 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk direct 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk direct 1 4 16 64
# bin/bsprun -n 2 build/rel/bench/bulk reg 1 64
# bin/bsprun -n 2 build/rel/bench/bulk reg 1 64
# bin/bsprun -n 2 build/rel/bench/bulk reg 1 64
# bin/bsprun -n 2 build/rel/bench/bulk reg 1 64
# bin/bsprun -n 2 build/rel/bench/bulk reg 1 64
# bin/bsprun -n 1 build/rel/bench/send 100000 move
# bin/bsprun -n 1 build/rel/bench/send 100000 move
# bin/bsprun -n 1 build/rel/bench/send 100000 move
# bin/bsprun -n 1 build/rel/bench/send 100000 move
# bin/bsprun -n 1 build/rel/bench/send 100000 move
# bin/bsprun -n 1 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 1 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 1 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 1 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 1 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 2 build/rel/bench/send 100000 move
# bin/bsprun -n 2 build/rel/bench/send 100000 move
# bin/bsprun -n 2 build/rel/bench/send 100000 move
# bin/bsprun -n 2 build/rel/bench/send 100000 move
# bin/bsprun -n 2 build/rel/bench/send 100000 move
# bin/bsprun -n 2 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 2 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 2 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 2 build/rel/bench/send 100000 hpmove
# bin/bsprun -n 2 build/rel/bench/send 100000 hpmove
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 16
# build/rel/bench/begin 2
# build/rel/bench/begin 2
# build/rel/bench/begin 2
# build/rel/bench/begin 2
# build/rel/bench/begin 2
# bin/bsprun -n 2 build/rel/bench/memory 10240 1024
# mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mpi/peers 16 100 1000 10000 100000 1000000
# mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mpi/peers 16 100 1000 10000 100000 1000000
# mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mpi/peers 16 100 1000 10000 100000 1000000
# mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mpi/peers 16 100 1000 10000 100000 1000000
# mpirun -q --oversubscribe --allow-run-as-root -n 2 build/rel/bench/mpi/peers 16 100 1000 10000 100000 1000000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/puts 16 100 1000 10000 100000 1000000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/bulk put 1 64
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/bulk put 1 64
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/bulk put 1 64
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/bulk put 1 64
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/bulk put 1 64
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/send 100000 move
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/send 100000 move
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/send 100000 move
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/send 100000 move
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 2 build/rel/bench/send 100000 move
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 4 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 4 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 4 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 4 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root  -n 4 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 2 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/puts 16 1000
# SUPERSTEP_DEVICE=mpi mpirun -q --oversubscribe --allow-run-as-root --bind-to none -n 4 build/rel/bench/puts 16 1000
