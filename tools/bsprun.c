/*
 * bsprun - run a BSP program on P processors.
 *
 *   bsprun -n P [--device shm|mpi|auto] [--mandatory] [--profile FILE] [--stall-timeout S] [--show]
 *          [--] ./prog args...
 *   bsprun --help | --version
 *
 * Sets SUPERSTEP_NPROCS (what bsp_nprocs() returns before bsp_begin, and the
 * default processor count of Epiphany host programs and mp.h) and
 * SUPERSTEP_DEVICE, then runs the program in its place (--show prints that
 * command, env and all, instead).
 *
 * --device mpi runs "mpirun -n P program args" instead (Open MPI: with -q,
 * --oversubscribe, and --allow-run-as-root when root; an Epiphany host
 * program, which spawns its kernels, with -n 1).  The launcher is the
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
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
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

/* Does the executable at 'path' have the section host_bsp.h puts in every
 * host program?  Read from its ELF section headers (64-bit). */
static bool host_program(const char *path)
{
    bool found = false;
    FILE *f = path ? fopen(path, "rb") : NULL;
    Elf64_Ehdr eh;
    if (!f || fread(&eh, sizeof eh, 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum)
        goto out;
    Elf64_Shdr *sh = calloc(eh.e_shnum, sizeof *sh);
    if (!sh || fseek(f, (long)eh.e_shoff, SEEK_SET) || fread(sh, sizeof *sh, eh.e_shnum, f) != eh.e_shnum)
        goto out_sh;
    const Elf64_Shdr *names = sh + eh.e_shstrndx;
    static const char want[] = ".superstep_host";
    char name[sizeof want];
    for (unsigned i = 0; i < eh.e_shnum && !found; i++)
        found = sh[i].sh_name + sizeof want <= names->sh_size &&
                !fseek(f, (long)(names->sh_offset + sh[i].sh_name), SEEK_SET) &&
                fread(name, sizeof name, 1, f) == 1 && !memcmp(name, want, sizeof want);
out_sh:
    free(sh);
out:
    if (f)
        fclose(f);
    return found;
}

/* --show: print the command instead of running it. */
static bool show;

/* The variables bsprun sets for the program, in the order set, so that
 * --show can print them: "NAME=value". */
static char *set_vars[8];
static int nset;

static void set_var(const char *name, const char *value)
{
    setenv(name, value, 1);
    for (int i = 0; i < nset; i++)
        if (!strncmp(set_vars[i], name, strlen(name)) && set_vars[i][strlen(name)] == '=') {
            free(set_vars[i]);
            set_vars[i] = set_vars[--nset];
        }
    size_t n = strlen(name) + strlen(value) + 2;
    set_vars[nset] = malloc(n);
    snprintf(set_vars[nset++], n, "%s=%s", name, value);
}

/* One word as a shell reads it: quoted when it holds anything else than
 * letters, digits and _./=:,+@%-. */
static void print_word(const char *w)
{
    if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=:,+@%-") == strlen(w)) {
        fputs(w, stdout);
        return;
    }
    putchar('\'');
    for (; *w; w++)
        fputs(*w == '\'' ? "'\\''" : (char[]){ *w, 0 }, stdout);
    putchar('\'');
}

/* --show: the command that would run, as one line a shell runs the same
 * way: env with the variables bsprun sets, then argv. */
static int show_command(char **argv)
{
    if (nset) {
        fputs("env", stdout);
        for (int i = 0; i < nset; i++) {
            putchar(' ');
            print_word(set_vars[i]);
        }
        putchar(' ');
    }
    for (int i = 0; argv[i]; i++) {
        if (i)
            putchar(' ');
        print_word(argv[i]);
    }
    putchar('\n');
    return 0;
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

/* One output of mpirun that bsprun passes through and reads on the way. */
struct watch {
    int fd, to;          /* read from fd, write to fd 'to' */
    bool bol;
    size_t matched;      /* of "superstep: " at the start of a line */
    bool reported;       /* a "superstep: " line went by (stderr) */
    char line[256];      /* the current line's start (Hydra's stdout) */
    size_t len;
    int signal;          /* Hydra's banner: "EXIT STRING: ... (signal N)" */
};

static void watch_char(struct watch *w, char c)
{
    static const char mark[] = "superstep: ";
    if (w->bol || w->matched) {
        if (w->matched < sizeof mark - 1 && c == mark[w->matched]) {
            if (++w->matched == sizeof mark - 1)
                w->reported = true;
        } else {
            w->matched = 0;
        }
    }
    w->bol = c == '\n';
    if (w->bol)
        w->matched = 0;
    if (c != '\n') {
        if (w->len < sizeof w->line - 1)
            w->line[w->len++] = c;
        return;
    }
    w->line[w->len] = 0;
    w->len = 0;
    const char *s = strstr(w->line, "TERMINATED WITH THE EXIT STRING:"), *p;
    int sig;
    if (s && (p = strstr(s, "(signal ")) && sscanf(p, "(signal %d)", &sig) == 1 && sig > 0 && sig < 65)
        w->signal = sig;
}

/* Does mpirun (bsprun's child) have a child that is not a zombie?  What
 * cannot be read counts as one: bsprun ends its mpirun only on evidence. */
static bool has_live_child(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d)
        return true;
    bool live = false;
    for (struct dirent *t; !live && (t = readdir(d));) {
        char kids_path[sizeof path + 300];
        snprintf(kids_path, sizeof kids_path, "%s/%s/children", path, t->d_name);
        FILE *f = t->d_name[0] == '.' ? NULL : fopen(kids_path, "r");
        for (int kid; f && !live && fscanf(f, "%d", &kid) == 1;) {
            char stat_path[64], stat[256];
            snprintf(stat_path, sizeof stat_path, "/proc/%d/stat", kid);
            FILE *k = fopen(stat_path, "r");
            size_t n = k ? fread(stat, 1, sizeof stat - 1, k) : 0;
            if (k)
                fclose(k);
            stat[n] = 0;
            const char *paren = strrchr(stat, ')'); /* "pid (comm) S ..." */
            live = paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
        }
        if (f)
            fclose(f);
    }
    closedir(d);
    return live;
}

/* After a failure (a "superstep: " line went by), Open MPI 4.1's mpirun
 * may hang for ever with no process of the job left (docs/mpi.md, "Not
 * done"): once it has been silent that long with no live child at two
 * looks in a row, bsprun ends its own child with a line saying so.  A
 * healthy job is never ended. */
static void bound_mpirun(pid_t pid, int limit_s)
{
    static bool childless; /* at the look before: a child that ended as mpirun ends is no hang */
    bool was = childless;
    childless = !has_live_child(pid);
    if (!childless || !was)
        return;
    fprintf(stderr, "superstep: bsprun: mpirun (pid %d) went on %d s after the job's failure with no process of the "
                    "job left: the time limit expired (SUPERSTEP_MPIRUN_HANG_TIMEOUT=%d); bsprun ended it\n",
            (int)pid, limit_s, limit_s);
    kill(pid, SIGKILL); /* bsprun's own child */
}

/* Copy a (stderr) and b (stdout, or NULL) through until both end; bound
 * mpirun (pid) after a failure by limit_s seconds of silence (0: never). */
static void forward(struct watch *a, struct watch *b, pid_t pid, int limit_s)
{
    struct watch *w[2] = { a, b };
    int open = b ? 2 : 1;
    char buf[4096];
    while (open) {
        struct pollfd pf[2];
        int k = 0;
        for (int i = 0; i < 2; i++)
            if (w[i] && w[i]->fd >= 0)
                pf[k++] = (struct pollfd){ .fd = w[i]->fd, .events = POLLIN };
        int r = poll(pf, (nfds_t)k, a->reported && limit_s ? limit_s * 1000 : -1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return;
        if (r == 0) {
            bound_mpirun(pid, limit_s);
            continue;
        }
        for (int i = 0; i < 2; i++) {
            if (!w[i] || w[i]->fd < 0)
                continue;
            int j = 0;
            while (j < k && pf[j].fd != w[i]->fd)
                j++;
            if (j == k || !pf[j].revents)
                continue;
            ssize_t n = read(w[i]->fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                close(w[i]->fd);
                w[i]->fd = -1;
                open--;
                continue;
            }
            for (ssize_t c = 0; c < n; c++)
                watch_char(w[i], buf[c]);
            for (ssize_t off = 0; off < n;) {
                ssize_t x = write(w[i]->to, buf + off, (size_t)(n - off));
                if (x <= 0)
                    break;
                off += x;
            }
        }
    }
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
        set_var("SUPERSTEP_DEVICE", "shm");
        if (show) {
            free(words);
            return show_command(argv);
        }
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
    /* A host program runs on one rank: SUPERSTEP_NPROCS gives it P. */
    char *prog = find_in_path(argv[0]);
    cmd[k++] = "-n";
    cmd[k++] = host_program(prog) ? "1" : (char *)nprocs;
    free(prog);
    int argc = 0;
    while (argv[argc])
        argc++;
    char **all = calloc((size_t)(k + argc + 1), sizeof *all);
    memcpy(all, cmd, (size_t)k * sizeof *all);
    memcpy(all + k, argv, (size_t)argc * sizeof *all);
    if (show) {
        all[0] = path;
        int rc = show_command(all);
        free(all);
        free(path);
        free(words);
        return rc;
    }

    /* MPICH's Hydra exits with the signal's number (9), not 128 + it, when
     * a rank is killed by a signal, which an exit status of 9 cannot tell
     * apart; its banner on stdout says which ("... EXIT STRING: Killed
     * (signal 9)"), so its stdout goes through bsprun too.  Never for
     * status 1, the runtime's error status: the banner names "Hangup
     * (signal 1)" beside an exit with status 1 too (docs/mpi.md,
     * signal-status). */
    bool hydra = !strncmp(base, "mpiexec.hydra", 13);
    int efd[2], ofd[2] = { -1, -1 };
    if (pipe2(efd, O_CLOEXEC) != 0 || (hydra && pipe2(ofd, O_CLOEXEC) != 0)) {
        execv(path, all); /* dup2 below gives mpirun its own, inheritable, copies */
        return 127;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "bsprun: cannot start %s: %s\n", path, strerror(errno));
        return 127;
    }
    if (pid == 0) {
        dup2(efd[1], 2);
        if (hydra)
            dup2(ofd[1], 1);
        execv(path, all);
        fprintf(stderr, "bsprun: cannot run %s: %s\n", path, strerror(errno));
        _exit(127);
    }
    close(efd[1]);
    if (hydra)
        close(ofd[1]);
    signal(SIGINT, SIG_IGN); /* mpirun gets it too, and stops the job */
    signal(SIGPIPE, SIG_IGN);
    struct watch err = { .fd = efd[0], .to = 2, .bol = true }, out = { .fd = ofd[0], .to = 1, .bol = true };
    uint64_t limit = setting_num(SET_MPIRUN_HANG_TIMEOUT);
    forward(&err, hydra ? &out : NULL, pid, limit < INT_MAX / 1000 ? (int)limit : INT_MAX / 1000);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (hydra && out.signal > 1 && rc == out.signal)
        rc = 128 + out.signal; /* as Open MPI's mpirun and shm give it */
    if (rc != 0 && !err.reported) {
        if (rc > 128 && rc < 128 + 65)
            fprintf(stderr, "superstep: a processor was killed by signal %d (SIG%s); mpirun stopped the job\n",
                    rc - 128, sigabbrev_np(rc - 128) ? sigabbrev_np(rc - 128) : "?");
        else
            fprintf(stderr, "superstep: a processor exited with status %d; mpirun stopped the job\n", rc);
    }
    free(all);
    free(path);
    free(words);
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
          "  --stall-timeout S  stop a hung job: once processors have waited S seconds in a\n"
          "                     collective call for one still computing, one line names it\n"
          "                     and the job ends (SUPERSTEP_STALL_TIMEOUT; default: wait)\n"
          "  --show             print the command that would run (env and the program, or\n"
          "                     mpirun and its options), and run nothing\n"
          "  -h, --help         print this help and exit\n"
          "  -V, --version      print the version and exit\n"
          "\n"
          "Options end at the program's name; -np P is accepted for -n P.  A job that\n"
          "hangs: Ctrl-C ends it with a line saying where each processor was, in which\n"
          "superstep, computing or in which call.  See bsprun(1).\n",
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
    set_var("SUPERSTEP_NPROCS", canon);
}

static void set_device(const char *v)
{
    if (strcmp(v, "shm") && strcmp(v, "mpi") && strcmp(v, "auto"))
        bad_usage("unknown device '%s' for --device (shm, mpi or auto)", v);
    set_var("SUPERSTEP_DEVICE", v);
}

static const struct option long_options[] = {
    {"nprocs", required_argument, NULL, 'n'},
    {"device", required_argument, NULL, 'd'},
    {"mandatory", no_argument, NULL, 'm'},
    {"profile", required_argument, NULL, 'p'},
    {"stall-timeout", required_argument, NULL, 't'},
    {"show", no_argument, NULL, 's'},
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
        case 'm': set_var("SUPERSTEP_DEVICE_MANDATORY", "1"); break;
        case 'p':
            if (!*optarg)
                bad_usage("%s needs a file name", "--profile");
            set_var("SUPERSTEP_PROFILE", optarg);
            break;
        case 't': set_var("SUPERSTEP_STALL_TIMEOUT", optarg); break; /* checked with every setting below */
        case 's': show = true; break;
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
    settings_check(); /* the environment as the program will see it */
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
    if (show)
        return show_command(argv + i);
    execvp(argv[i], argv + i);
    fprintf(stderr, "bsprun: cannot run %s: %s\n", argv[i], strerror(errno));
    return 127;
}
