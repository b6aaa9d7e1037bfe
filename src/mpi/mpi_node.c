/*
 * mpi_node.c - the node page: where each processor of this machine is.
 *
 * The ranks of one machine share a page of launch_proc entries, one per
 * processor of the job, each written by its own rank (job.node_mirror):
 * its superstep, the call it waits in, whether it ended.  A rank that an
 * interrupt ends reads it to say where every processor of the machine was
 * (mpi_watch.c), which its own segment cannot tell (on mpi it holds this
 * rank's entry only).  The page is a memfd of the machine's lowest rank,
 * which the others open through /proc (a rank is no child of another, so
 * no descriptor can be passed); nothing of it outlives the ranks.
 */
#include "mpi/mpi_node.h"
#include "launch/launch.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mpi/plugin.h" /* core: the core's services */

static struct {
    struct launch_proc *proc; /* NULL: no page */
    size_t bytes;
    uint32_t p, me;
    bool whole;
} node;

/* The machine's lowest rank makes the page, every entry "elsewhere". */
static struct launch_proc *make(size_t bytes, uint32_t p, int *fd)
{
    *fd = memfd_create("superstep-node", MFD_CLOEXEC);
    if (*fd < 0)
        return NULL;
    struct launch_proc *proc = MAP_FAILED;
    if (ftruncate(*fd, (off_t)bytes) == 0)
        proc = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
    if (proc == MAP_FAILED)
        return NULL;
    for (uint32_t q = 0; q < p; q++)
        atomic_store(&proc[q].os_pid, -1);
    return proc;
}

static struct launch_proc *join(long pid, long maker_fd, size_t bytes, int *fd)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/fd/%ld", pid, maker_fd);
    *fd = open(path, O_RDWR | O_CLOEXEC);
    if (*fd < 0)
        return NULL;
    struct launch_proc *proc = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
    return proc == MAP_FAILED ? NULL : proc;
}

struct launch_proc *mpi_node_open(MPI_Comm c, uint32_t p, uint32_t me)
{
    mpi_node_close();
    MPI_Comm here;
    if (MPI_Comm_split_type(c, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &here) != MPI_SUCCESS)
        return NULL;
    int rank = 0, size = 0;
    MPI_Comm_rank(here, &rank);
    MPI_Comm_size(here, &size);
    long page = sysconf(_SC_PAGESIZE);
    size_t bytes = (p * sizeof(struct launch_proc) + (size_t)page - 1) / (size_t)page * (size_t)page;
    struct launch_proc *proc = NULL;
    int fd = -1;
    long maker[2] = { getpid(), -1 };
    if (rank == 0 && (proc = make(bytes, p, &fd)))
        maker[1] = fd;
    MPI_Bcast(maker, 2, MPI_LONG, 0, here);
    if (rank != 0 && maker[1] >= 0)
        proc = join(maker[0], maker[1], bytes, &fd);
    int ok = proc != NULL, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, here); /* the maker's descriptor stays open until then */
    if (fd >= 0)
        close(fd);
    MPI_Comm_free(&here);
    if (!all) {
        if (proc)
            munmap(proc, bytes);
        return NULL;
    }
    node.proc = proc, node.bytes = bytes, node.p = p, node.me = me, node.whole = (uint32_t)size == p;
    struct launch_proc *mine = &proc[me];
    atomic_store(&mine->step, 0);
    atomic_store(&mine->call, 0);
    atomic_store(&mine->ended, 0);
    atomic_store(&mine->os_pid, getpid());
    return mine;
}

void mpi_node_close(void)
{
    struct launch_proc *proc = node.proc;
    node.proc = NULL;
    if (proc)
        munmap(proc, node.bytes);
}

const struct launch_proc *mpi_node_entries(uint32_t *p, bool *whole)
{
    *p = node.p;
    *whole = node.whole;
    return node.proc;
}

/* PF_EXITING of the kernel's task flags (include/linux/sched.h): set as
 * a process starts to exit, before its descriptors close. */
#define TASK_EXITING 0x00000004ul

bool mpi_pid_exiting(pid_t pid)
{
    char state;
    uint64_t flags;
    return !core->supervise_proc_stat(pid, 9, &state, &flags) || (flags & TASK_EXITING) || state == 'Z' ||
           state == 'X';
}

bool mpi_node_one_failed(void)
{
    for (uint32_t q = 0; node.proc && q < node.p; q++) {
        pid_t pid = atomic_load(&node.proc[q].os_pid);
        if (q != node.me && pid > 0 && !atomic_load(&node.proc[q].ended) && mpi_pid_exiting(pid))
            return true;
    }
    return false;
}
