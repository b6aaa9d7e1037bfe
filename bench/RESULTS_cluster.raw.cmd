# [ss] 2 nodes x 1: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/empty
# [ss] 2 nodes x 1: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk put 1 64
# [ss] 2 nodes x 1: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk hpput 1 64
# [ss] 2 nodes x 1: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk hpget 1 64
# [mpi] 2 nodes x 1: env OMPI_MCA_osc=pt2pt build/rel/bench/mpi/peers 16
# [bm] 2 nodes x 1: env OMPI_MCA_osc=pt2pt WORK/bm_empty
[node1:00693] plm:rsh: Warning: setpgid(746,746) failed in parent with errno=Permission denied(13)
# [bm] 2 nodes x 1: env OMPI_MCA_osc=pt2pt WORK/bm_bulk put 1 64
# [bm] 2 nodes x 1: env OMPI_MCA_osc=pt2pt WORK/bm_bulk hpput 1 64
# [bm] 2 nodes x 1: env OMPI_MCA_osc=pt2pt WORK/bm_bulk hpget 1 64
# [ss] 2 nodes x 2: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/empty
# [ss] 2 nodes x 2: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk put 1 64
# [ss] 2 nodes x 2: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk hpput 1 64
# [ss] 2 nodes x 2: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk hpget 1 64
# [mpi] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 build/rel/bench/mpi/peers 16
# [bm] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 WORK/bm_empty
# [bm] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 WORK/bm_bulk put 1 64
# [bm] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 WORK/bm_bulk hpput 1 64
# [bm] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 WORK/bm_bulk hpget 1 64
# [ss] 2 nodes x 1: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/empty
# [ss] 2 nodes x 1: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk put 1 64
# [ss] 2 nodes x 1: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk hpput 1 64
[node1:18649] plm:rsh: Warning: setpgid(18673,18673) failed in parent with errno=Permission denied(13)
# [ss] 2 nodes x 1: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk hpget 1 64
# [mpi] 2 nodes x 1: env OMPI_MCA_osc=pt2pt build/rel/bench/mpi/peers 16
# [bm] 2 nodes x 1: env OMPI_MCA_osc=pt2pt WORK/bm_empty
# [bm] 2 nodes x 1: env OMPI_MCA_osc=pt2pt WORK/bm_bulk put 1 64
# [bm] 2 nodes x 1: env OMPI_MCA_osc=pt2pt WORK/bm_bulk hpput 1 64
# [bm] 2 nodes x 1: env OMPI_MCA_osc=pt2pt WORK/bm_bulk hpget 1 64
# [ss] 2 nodes x 2: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/empty
# [ss] 2 nodes x 2: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk put 1 64
# [ss] 2 nodes x 2: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk hpput 1 64
# [ss] 2 nodes x 2: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk hpget 1 64
[node1:30404] plm:rsh: Warning: setpgid(30415,30415) failed in parent with errno=Permission denied(13)
# [mpi] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 build/rel/bench/mpi/peers 16
[node1:31411] plm:rsh: Warning: setpgid(31430,31430) failed in parent with errno=Permission denied(13)
# [bm] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 WORK/bm_empty
# [bm] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 WORK/bm_bulk put 1 64
# [bm] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 WORK/bm_bulk hpput 1 64
[node1:03753] plm:rsh: Warning: setpgid(3768,3768) failed in parent with errno=Permission denied(13)
# [bm] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 WORK/bm_bulk hpget 1 64
# [ss] 2 nodes x 1: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/empty
# [ss] 2 nodes x 1: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk put 1 64
# [ss] 2 nodes x 1: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk hpput 1 64
# [ss] 2 nodes x 1: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk hpget 1 64
# [mpi] 2 nodes x 1: env OMPI_MCA_osc=pt2pt build/rel/bench/mpi/peers 16
# [bm] 2 nodes x 1: env OMPI_MCA_osc=pt2pt WORK/bm_empty
# [bm] 2 nodes x 1: env OMPI_MCA_osc=pt2pt WORK/bm_bulk put 1 64
# [bm] 2 nodes x 1: env OMPI_MCA_osc=pt2pt WORK/bm_bulk hpput 1 64
# [bm] 2 nodes x 1: env OMPI_MCA_osc=pt2pt WORK/bm_bulk hpget 1 64
# [ss] 2 nodes x 2: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/empty
# [ss] 2 nodes x 2: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk put 1 64
# [ss] 2 nodes x 2: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk hpput 1 64
# [ss] 2 nodes x 2: env SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 build/rel/bench/bulk hpget 1 64
# [mpi] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 build/rel/bench/mpi/peers 16
# [bm] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 WORK/bm_empty
# [bm] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 WORK/bm_bulk put 1 64
[node1:15933] plm:rsh: Warning: setpgid(15944,15944) failed in parent with errno=Permission denied(13)
# [bm] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 WORK/bm_bulk hpput 1 64
# [bm] 2 nodes x 2: env OMPI_MCA_osc=pt2pt OMPI_MCA_mpi_yield_when_idle=1 WORK/bm_bulk hpget 1 64
