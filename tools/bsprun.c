/*
 * bsprun - run a BSP program on P processors.
 *
 *   bsprun -n P [--device shm|mpi|auto] [--mandatory] [--profile FILE] [--]
 *          ./prog args...
 *   bsprun --help | --version
 *
 * Sets SUPERSTEP_NPROCS (what bsp_nprocs() returns before bsp_begin, and the
 * default processor count of Epiphany host programs and mp.h) and
 * SUPERSTEP_DEVICE, then runs the program in its place.
 *
 * --device mpi runs "mpirun -n P program args" instead (Open MPI: with -q,
 * --oversubscribe, and --allow-run-as-root when root).  The launcher is the
 * one of the MPI Superstep was built with (SUPERSTEP_MPI_LAUNCHER, from the
 * Makefile: an MPICH build's programs under Open MPI's mpirun would each be
 * a job of one rank), "mpirun" when that is not there; SUPERSTEP_MPIRUN
 * replaces it, e.g. "mpirun --hostfile hosts".  It watches mpirun's
 * stderr: a job that failed without any "superstep:" line (a rank killed by
 * SIGKILL, or leaving with _exit) gets one, so no failure is silent.  When
 * mpirun is missing it warns and runs on shm (an error with --mandatory);
 * in a build without MPI the program is run directly, and says so.
 *
 * Options are parsed with getopt_long up to the program's name (everything
 * after it is the program's); each bad option or value is one line on
 * stderr, "bsprun: <what>", and exit status 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bsp.h" /* SUPERSTEP_VERSION */
#include "settings/settings.h"

/* The full path of 'name' found in PATH, or NULL. */
static char *find_in_path(const char *name)
{
    if (strchr(name, '/'))
        return access(name, X_OK) == 0 ? strdup(name) : NULL;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    char buf[PATH_MAX];
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, name);
        if (n && access(buf, X_OK) == 0)
            return strdup(buf);
        p += n;
        if (*p == ':')
            p++;
    }
    return NULL;
}

static bool mandatory(void)
{
    return setting_num(SET_DEVICE_MANDATORY) == 1;
}

#ifndef SUPERSTEP_MPI_LAUNCHER
#define SUPERSTEP_MPI_LAUNCHER "mpirun"
#endif

/* SUPERSTEP_MPIRUN, else the launcher of the MPI this build links (its
 * programs start only under their own MPI's launcher), else mpirun. */
static const char *launcher_default(void)
{
    const char *launcher = setting_str(SET_MPIRUN);
    if (launcher)
        return launcher;
    if (access(SUPERSTEP_MPI_LAUNCHER, X_OK) == 0)
        return SUPERSTEP_MPI_LAUNCHER;
    return "mpirun";
}

/* Run argv (a program and its arguments) under mpirun on nprocs ranks. */
static int run_mpi(const char *nprocs, char **argv)
{
    char *words = strdup(launcher_default());
    char *cmd[64 + 8];
    int k = 0;
    for (char *w = strtok(words, " \t"); w && k < 64; w = strtok(NULL, " \t"))
        cmd[k++] = w;
    char *path = k ? find_in_path(cmd[0]) : NULL;
    if (!path) {
        if (mandatory()) {
            fprintf(stderr, "superstep: bsprun: device mpi cannot be used: %s not found "
                            "(SUPERSTEP_DEVICE_MANDATORY=1)\n", k ? cmd[0] : "mpirun");
            return 1;
        }
        fprintf(stderr, "superstep: warning: device mpi cannot be used (%s not found); running on shm\n",
                k ? cmd[0] : "mpirun");
        setenv("SUPERSTEP_DEVICE", "shm", 1);
        execvp(argv[0], argv);
        fprintf(stderr, "bsprun: cannot run %s: %s\n", argv[0], strerror(errno));
        return 127;
    }
    /* Open MPI (orterun, prterun) takes the options below; MPICH's Hydra
     * oversubscribes and runs as root without being told. */
    char real[PATH_MAX];
    const char *base = realpath(path, real) ? strrchr(real, '/') + 1 : "";
    if (!strncmp(base, "orterun", 7) || !strncmp(base, "prterun", 7) || !strncmp(base, "mpirun.openmpi", 14)) {
        cmd[k++] = "-q";
        cmd[k++] = "--oversubscribe";
        if (geteuid() == 0)
            cmd[k++] = "--allow-run-as-root";
    }
    cmd[k++] = "-n";
    cmd[k++] = (char *)nprocs;
    int argc = 0;
    while (argv[argc])
        argc++;
    char **all = calloc((size_t)(k + argc + 1), sizeof *all);
    memcpy(all, cmd, (size_t)k * sizeof *all);
    memcpy(all + k, argv, (size_t)argc * sizeof *all);

    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) != 0) { /* dup2 below gives mpirun its own, inheritable, copy */
        execv(path, all);
        return 127;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "bsprun: cannot start %s: %s\n", path, strerror(errno));
        return 127;
    }
    if (pid == 0) {
        dup2(pfd[1], 2);
        close(pfd[0]);
        close(pfd[1]);
        execv(path, all);
        fprintf(stderr, "bsprun: cannot run %s: %s\n", path, strerror(errno));
        _exit(127);
    }
    close(pfd[1]);
    signal(SIGINT, SIG_IGN); /* mpirun gets it too, and stops the job */
    signal(SIGPIPE, SIG_IGN);
    /* Forward mpirun's stderr; note whether a failure line went by. */
    bool reported = false, bol = true;
    static const char mark[] = "superstep: ";
    size_t matched = 0;
    char buf[4096];
    ssize_t n;
    while ((n = read(pfd[0], buf, sizeof buf)) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (ssize_t i = 0; i < n; i++) {
            char c = buf[i];
            if (bol || matched) {
                if (matched < sizeof mark - 1 && c == mark[matched]) {
                    if (++matched == sizeof mark - 1)
                        reported = true;
                } else {
                    matched = 0;
                }
            }
            bol = c == '\n';
            if (bol)
                matched = 0;
        }
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(2, buf + off, (size_t)(n - off));
            if (w <= 0)
                break;
            off += w;
        }
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (rc != 0 && !reported) {
        if (rc > 128 && rc < 128 + 65)
            fprintf(stderr, "superstep: a processor was killed by signal %d (SIG%s); mpirun stopped the job\n",
                    rc - 128, sigabbrev_np(rc - 128) ? sigabbrev_np(rc - 128) : "?");
        else
            fprintf(stderr, "superstep: a processor exited with status %d; mpirun stopped the job\n", rc);
    }
    return rc;
}

static void usage(FILE *f)
{
    fputs("usage: bsprun [options] [--] program [args...]\n"
          "Run a BSP program (BSPlib, Epiphany BSP host, or mp.h) on P processors.\n"
          "\n"
          "  -n P, --nprocs P   number of BSP processors, 1..65535 (sets SUPERSTEP_NPROCS;\n"
          "                     default: the number of CPUs)\n"
          "  --device D         device to run on (SUPERSTEP_DEVICE): shm, mpi (through mpirun)\n"
          "                     or auto (the default: mpi under an MPI launcher, else shm)\n"
          "  --mandatory        fail rather than fall back when the device is unusable\n"
          "                     (SUPERSTEP_DEVICE_MANDATORY=1)\n"
          "  --profile FILE     write a trace of every superstep to FILE (SUPERSTEP_PROFILE)\n"
          "  -h, --help         print this help and exit\n"
          "  -V, --version      print the version and exit\n"
          "\n"
          "Options end at the program's name; -np P is accepted for -n P.  See bsprun(1).\n",
          f);
}

/* One line naming what is wrong, then exit status 2 (a usage error). */
static void bad_usage(const char *fmt, const char *what)
{
    fputs("bsprun: ", stderr);
    fprintf(stderr, fmt, what);
    fputs(" (try bsprun --help)\n", stderr);
    exit(2);
}

/* The processor count of -n: a decimal number 1..65535, nothing else. */
static void set_nprocs(const char *v)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (!*v || *end || errno || n < 1 || n > 65535)
        bad_usage("bad processor count '%s' for -n (a number 1..65535)", v);
    char canon[8];
    snprintf(canon, sizeof canon, "%ld", n);
    setenv("SUPERSTEP_NPROCS", canon, 1);
}

static void set_device(const char *v)
{
    if (strcmp(v, "shm") && strcmp(v, "mpi") && strcmp(v, "auto"))
        bad_usage("unknown device '%s' for --device (shm, mpi or auto)", v);
    setenv("SUPERSTEP_DEVICE", v, 1);
}

static const struct option long_options[] = {
    {"nprocs", required_argument, NULL, 'n'},
    {"device", required_argument, NULL, 'd'},
    {"mandatory", no_argument, NULL, 'm'},
    {"profile", required_argument, NULL, 'p'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

/* Parse the options; returns the index of the program's name in argv. */
static int parse_options(int argc, char **argv)
{
    /* mpirun's -np P, as -n P. */
    for (int i = 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "-np"))
            argv[i] = "-n";
    opterr = 0; /* our own messages, one line each */
    int c;
    /* '+': stop at the first non-option, the program; ':': report a missing value. */
    while ((c = getopt_long(argc, argv, "+:n:hV", long_options, NULL)) != -1) {
        switch (c) {
        case 'n': set_nprocs(optarg); break;
        case 'd': set_device(optarg); break;
        case 'm': setenv("SUPERSTEP_DEVICE_MANDATORY", "1", 1); break;
        case 'p':
            if (!*optarg)
                bad_usage("%s needs a file name", "--profile");
            setenv("SUPERSTEP_PROFILE", optarg, 1);
            break;
        case 'h': usage(stdout); exit(0);
        case 'V': printf("bsprun (Superstep) %s\n", SUPERSTEP_VERSION); exit(0);
        case ':': bad_usage("option '%s' needs a value", argv[optind - 1]); break;
        default: {
            /* A long option (also one given a value it does not take) is
             * named as written; a short one by its letter. */
            const char *a = argv[optind - 1];
            if (!strncmp(a, "--", 2) || !optopt)
                bad_usage("unknown option '%s'", a);
            char opt[3] = {'-', (char)optopt, 0};
            bad_usage("unknown option '%s'", opt);
        }
        }
    }
    if (optind >= argc)
        bad_usage("no program to run%s", "");
    return optind;
}

int main(int argc, char **argv)
{
    int i = parse_options(argc, argv);
    settings_check("bsprun"); /* the environment as the program will see it */
    const char *device = setting_str(SET_DEVICE);
#ifdef SUPERSTEP_HAVE_MPI
    if (device && !strcmp(device, "mpi") && !getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE")) {
        char np[24];
        snprintf(np, sizeof np, "%llu", (unsigned long long)setting_num(SET_NPROCS));
        return run_mpi(np, argv + i);
    }
#else
    (void)device; /* no mpi device: the program itself warns and runs on shm */
    (void)run_mpi;
#endif
    execvp(argv[i], argv + i);
    fprintf(stderr, "bsprun: cannot run %s: %s\n", argv[i], strerror(errno));
    return 127;
}
