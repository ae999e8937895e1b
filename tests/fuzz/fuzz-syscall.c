/*
 * Fuzz target for the Linux user-mode system-call layer: one input is a
 * list of system calls with random numbers and arguments, run through
 * linux_syscall() for a fresh process, in a sandbox.
 *
 * Sandbox (set up once, in LLVMFuzzerInitialize):
 *  - new mount, PID, network, IPC and UTS namespaces (as root, else
 *    inside a new user namespace); the fuzzing goes on in a child that is
 *    PID 1 of the new PID namespace, so kill(pid) reaches no host
 *    process, and the network namespace has no interface up;
 *  - that child chroot()s into the scratch directory ($LINX_FUZZ_SANDBOX,
 *    else a new one under /tmp): no path a guest names can leave it, and
 *    there are no device nodes in it;
 *  - the descriptors open before the first input are reserved (the guest
 *    cannot use, close or replace them), and every descriptor the guest
 *    opens is closed after its input;
 *  - each input runs in /box (seed files, a directory, symbolic links to
 *    "..", to an absolute host path and to a sentinel outside the
 *    sandbox); afterwards everything the guest created anywhere in the
 *    scratch directory is removed, cwd and umask are put back;
 *  - a 5 ms interval timer with an empty handler (no SA_RESTART) runs
 *    during an input, so a blocking call (sleep, read of an idle pipe)
 *    returns EINTR instead of hanging the fuzzer.
 * The parent outside the sandbox waits for the child and then checks that
 * the sentinel directory next to the scratch directory is unchanged (same
 * files, contents and times): no host file outside the scratch directory
 * changed.  Without the privileges for namespaces the target says SKIP
 * and exits 77.
 *
 * Invariants per input: the host process survives; every result is a
 * value or -errno (>= -4095); the reserved descriptors are still the same
 * files.
 *
 * Input format: records of [number selector][6 argument selectors with
 * their bytes]; see next_call().  Generated inputs: random records.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz-target.h"
#include "linux-user/linux-user.h"

const char fuzz_target_name[] = "fuzz-syscall";

/* LeakSanitizer reads /proc, which the sandbox does not have (mounting it
 * would hand the guest /proc/self/fd/N, a way back to files outside):
 * leaks in the system-call layer are the unit tests' to find
 * (tests/unit/test-linux-user-*.c, run under --sanitize).  The default
 * says so, and an ASAN_OPTIONS that asks for leak checks is overridden by
 * running the program again with detect_leaks=0 appended. */
#if defined(__SANITIZE_ADDRESS__)
#define FUZZ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#endif
#endif
#ifdef FUZZ_ASAN
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "detect_leaks=0";
}

static void no_leak_check(char **argv)
{
    const char *o = getenv("ASAN_OPTIONS");
    char *n;

    if (!o || !strstr(o, "detect_leaks=1") || getenv("LINX_FUZZ_NO_LEAKS")) {
        return;
    }
    if (asprintf(&n, "%s:detect_leaks=0", o) < 0) {
        return;
    }
    setenv("ASAN_OPTIONS", n, 1);
    setenv("LINX_FUZZ_NO_LEAKS", "1", 1);
    fflush(NULL);
    execv("/proc/self/exe", argv);
    free(n); /* (exec failed: go on with leak checks) */
}
#else
static void no_leak_check(char **argv)
{
    (void)argv;
}
#endif

#define BUF_BASE UINT64_C(0x100000)
#define BUF_SIZE UINT64_C(0x10000)
#define MAX_CALLS 24
#define MAX_FDS 64
#define KICK_SIGNAL (SIGRTMAX - 1)
#define KICK_NS 5000000L
#define SENTINEL_FILES 3

typedef struct SyscallFuzz {
    bool ready;
    int reserved[MAX_FDS];
    ino_t reserved_ino[MAX_FDS];
    unsigned nreserved;
    int max_reserved;
    mode_t umask;
    timer_t timer;
    char sentinel[PATH_MAX + 16]; /* host path, outside the sandbox */
} SyscallFuzz;

static SyscallFuzz sf;              /* the harness's set-up */
static long n_calls, n_ok, n_errno; /* generated-mode statistics */

/* System calls with a handler (asm-generic numbers), most of them with
 * host effects; others get -ENOSYS, which random numbers reach too. */
static const uint16_t implemented[] = {
    17,  23,  24,  25,  29,  34,  35,  46,  48,  49,  50,  56,  57,  59,  61,  62,  63,
    64,  65,  66,  67,  68,  73,  78,  79,  80,  82,  93,  94,  96,  98,  99,  101, 113,
    114, 115, 124, 129, 130, 131, 132, 134, 135, 136, 139, 160, 163, 164, 166, 169, 172,
    173, 174, 175, 176, 177, 178, 214, 215, 216, 222, 226, 233, 259, 261, 276, 278,
};

static const char *const paths[] = {
    "f",    "d",      "d/g",  "link", "esc",   "up",          "up/up/etc/passwd", "/",
    "/box", "/box/f", ".",    "..",   "../..", "/etc/passwd", "/dev/null",        "/proc/self/mem",
    "new",  "d/new",  "/new", "",     "f/x",   "sentinel/s0",
};

/* ---- sandbox ------------------------------------------------------------ */

static void write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
        fprintf(stderr, "%s: cannot write %s: %s\n", fuzz_target_name, path, strerror(errno));
        exit(1);
    }
    close(fd);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

/* Remove what the guest left in @dir, except the names in @keep. */
static void clean_dir(const char *dir, const char *const *keep)
{
    DIR *d = opendir(dir);
    struct dirent *de;

    if (!d) {
        return;
    }
    while ((de = readdir(d))) {
        char sub[PATH_MAX];
        bool kept = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
        for (const char *const *k = keep; *k && !kept; k++) {
            kept = !strncmp(de->d_name, *k, strlen(*k));
        }
        if (kept) {
            continue;
        }
        snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
        nftw(sub, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    closedir(d);
}

/* The guest's working directory, as it is at the start of every input. */
static void make_box(void)
{
    static const char *const keep_root[] = { "box",      "corpus", "crash-",     "leak-",
                                             "timeout-", "oom-",   "slow-unit-", NULL };
    static const char *const keep_none[] = { NULL };

    clean_dir("/", keep_root);
    mkdir("/box", 0755);
    clean_dir("/box", keep_none);
    write_file("/box/f", "file f\n");
    mkdir("/box/d", 0755);
    write_file("/box/d/g", "file g\n");
    if (symlink("f", "/box/link") || symlink(sf.sentinel, "/box/esc") || symlink("..", "/box/up") ||
        symlink(sf.sentinel, "/box/sentinel")) {
        fprintf(stderr, "%s: cannot make the box: %s\n", fuzz_target_name, strerror(errno));
        exit(1);
    }
}

static void kick(int sig)
{
    (void)sig; /* interrupts a blocking system call */
}

static bool enter_namespaces(void)
{
    int flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS;
    uid_t uid = getuid();
    gid_t gid = getgid();
    char map[64];

    if (unshare(flags) == 0) {
        return true;
    }
    if (unshare(flags | CLONE_NEWUSER) != 0) {
        return false;
    }
    /* In the user namespace: root mapped to us. */
    int fd = open("/proc/self/setgroups", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)!write(fd, "deny", 4);
        close(fd);
    }
    snprintf(map, sizeof(map), "0 %u 1", (unsigned)uid);
    fd = open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, map, strlen(map)) < 0) {
        return false;
    }
    close(fd);
    snprintf(map, sizeof(map), "0 %u 1", (unsigned)gid);
    fd = open("/proc/self/gid_map", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, map, strlen(map)) < 0) {
        return false;
    }
    close(fd);
    return true;
}

typedef struct Sentinel {
    struct stat st[SENTINEL_FILES + 1];
    char text[SENTINEL_FILES][32];
} Sentinel;

static void sentinel_snapshot(Sentinel *s)
{
    for (int i = 0; i <= SENTINEL_FILES; i++) {
        char p[PATH_MAX + 32];
        if (i < SENTINEL_FILES) {
            snprintf(p, sizeof(p), "%s/s%d", sf.sentinel, i);
        } else {
            snprintf(p, sizeof(p), "%s", sf.sentinel);
        }
        memset(&s->st[i], 0, sizeof(s->st[i]));
        stat(p, &s->st[i]);
        if (i < SENTINEL_FILES) {
            int fd = open(p, O_RDONLY | O_CLOEXEC);
            memset(s->text[i], 0, sizeof(s->text[i]));
            if (fd >= 0) {
                (void)!read(fd, s->text[i], sizeof(s->text[i]) - 1);
                close(fd);
            }
        }
    }
}

static bool sentinel_same(const Sentinel *a, const Sentinel *b)
{
    for (int i = 0; i <= SENTINEL_FILES; i++) {
        if (a->st[i].st_ino != b->st[i].st_ino || a->st[i].st_size != b->st[i].st_size ||
            a->st[i].st_mtim.tv_sec != b->st[i].st_mtim.tv_sec ||
            a->st[i].st_mtim.tv_nsec != b->st[i].st_mtim.tv_nsec ||
            a->st[i].st_mode != b->st[i].st_mode || a->st[i].st_nlink != b->st[i].st_nlink) {
            return false;
        }
    }
    for (int i = 0; i < SENTINEL_FILES; i++) {
        if (strcmp(a->text[i], b->text[i]) != 0) {
            return false;
        }
    }
    return true;
}

/* Outside the sandbox: wait for the fuzzing child, check the sentinel,
 * leave with the child's status. */
static _Noreturn void parent_wait(pid_t child, const char *temp_root)
{
    Sentinel before, after;
    int status = 0;

    sentinel_snapshot(&before);
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    sentinel_snapshot(&after);
    if (temp_root) {
        nftw(temp_root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    if (!sentinel_same(&before, &after)) {
        fprintf(stderr, "%s: FAIL: a file outside the sandbox changed (%s)\n", fuzz_target_name,
                sf.sentinel);
        nftw(sf.sentinel, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        _exit(1);
    }
    nftw(sf.sentinel, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (WIFSIGNALED(status)) {
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
        _exit(128 + WTERMSIG(status));
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

int LLVMFuzzerInitialize(int *argc, char **argv[])
{
    char root[PATH_MAX];
    const char *env_root = getenv("LINX_FUZZ_SANDBOX");
    const char *temp_root = NULL;
    struct sigaction sa;
    struct sigevent sev;
    pid_t child;

    (void)argc;
    no_leak_check(*argv);
    if (env_root && *env_root) {
        if (!realpath(env_root, root)) {
            fprintf(stderr, "%s: LINX_FUZZ_SANDBOX %s: %s\n", fuzz_target_name, env_root,
                    strerror(errno));
            exit(1);
        }
    } else {
        snprintf(root, sizeof(root), "/tmp/linx-fuzz-syscall-XXXXXX");
        if (!mkdtemp(root)) {
            exit(1);
        }
        temp_root = root;
    }
    /* The sentinel: files next to the sandbox that must not change. */
    snprintf(sf.sentinel, sizeof(sf.sentinel), "%s.outside", root);
    mkdir(sf.sentinel, 0755);
    for (int i = 0; i < SENTINEL_FILES; i++) {
        char p[PATH_MAX + 32];
        snprintf(p, sizeof(p), "%s/s%d", sf.sentinel, i);
        write_file(p, "sentinel\n");
    }
    fflush(NULL);
    if (!enter_namespaces()) {
        printf("%s: SKIP: no sandbox: cannot create namespaces (%s); needs root or user "
               "namespaces\n",
               fuzz_target_name, strerror(errno));
        nftw(sf.sentinel, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        if (temp_root) {
            rmdir(temp_root);
        }
        exit(77);
    }
    child = fork();
    if (child < 0) {
        exit(1);
    }
    if (child > 0) {
        parent_wait(child, temp_root);
    }
    /* PID 1 of the new namespace. */
    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
    fuzz_devnull(); /* before the chroot: there is no /dev inside */
    if (chdir(root) != 0 || chroot(root) != 0 || chdir("/") != 0) {
        fprintf(stderr, "%s: cannot enter the sandbox %s: %s\n", fuzz_target_name, root,
                strerror(errno));
        exit(1);
    }
    make_box();
    /* Our descriptors: reserved for the whole run. */
    for (int fd = 0; fd < 1024 && sf.nreserved < MAX_FDS; fd++) {
        struct stat st;
        if (fstat(fd, &st) == 0) {
            sf.reserved[sf.nreserved] = fd;
            sf.reserved_ino[sf.nreserved++] = st.st_ino;
            sf.max_reserved = fd;
        }
    }
    sf.umask = umask(022);
    umask(sf.umask);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = kick;
    sigemptyset(&sa.sa_mask);
    sigaction(KICK_SIGNAL, &sa, NULL);
    memset(&sev, 0, sizeof(sev));
    sev.sigev_notify = SIGEV_SIGNAL;
    sev.sigev_signo = KICK_SIGNAL;
    if (timer_create(CLOCK_MONOTONIC, &sev, &sf.timer) != 0) {
        exit(1);
    }
    sf.ready = true;
    return 0;
}

static void set_timer(bool on)
{
    struct itimerspec its = { { 0, on ? KICK_NS : 0 }, { 0, on ? KICK_NS : 0 } };

    timer_settime(sf.timer, 0, &its, NULL);
}

/* ---- one input ------------------------------------------------------------ */

typedef struct Call {
    uint64_t nr;
    uint64_t a[6];
} Call;

static bool next_call(FuzzReader *in, const int64_t *last_fd, Call *c)
{
    uint8_t sel;

    if (!in->n) {
        return false;
    }
    sel = fuzz_u8(in);
    c->nr = sel < 224 ? implemented[sel % (sizeof(implemented) / sizeof(implemented[0]))]
                      : fuzz_u64(in, 2) % 512;
    for (int i = 0; i < 6; i++) {
        uint8_t k = fuzz_u8(in);
        switch (k % 9) {
        case 0:
            c->a[i] = (uint64_t)((int64_t)(int8_t)fuzz_u8(in));
            break;
        case 1:
            c->a[i] = fuzz_u64(in, 8);
            break;
        case 2:
            c->a[i] = BUF_BASE + fuzz_u64(in, 2) % BUF_SIZE;
            break;
        case 3:
            c->a[i] = BUF_BASE + BUF_SIZE - 0x1000 +
                      64 * (fuzz_u8(in) % (sizeof(paths) / sizeof(paths[0])));
            break;
        case 4:
            c->a[i] = k & 0x80 ? (uint64_t)(int64_t)-100 : (uint64_t)*last_fd;
            break;
        case 5:
            c->a[i] = fuzz_u64(in, 2);
            break;
        case 6: {
            static const uint64_t wild[] = { 0,
                                             1,
                                             UINT64_MAX,
                                             UINT64_C(0x7ffffffff000),
                                             BUF_BASE + BUF_SIZE - 1,
                                             BUF_BASE - 1,
                                             UINT64_C(1) << 47,
                                             UINT64_C(0xffff800000000000) };
            c->a[i] = wild[fuzz_u8(in) % 8];
            break;
        }
        case 7:
            c->a[i] = fuzz_u64(in, 4);
            break;
        default:
            c->a[i] = fuzz_u8(in);
            break;
        }
    }
    return true;
}

static void close_guest_fds(void)
{
    for (int fd = 0; fd <= sf.max_reserved; fd++) {
        bool ours = false;
        for (unsigned i = 0; i < sf.nreserved && !ours; i++) {
            ours = sf.reserved[i] == fd;
        }
        if (!ours) {
            close(fd);
        }
    }
    close_range((unsigned)sf.max_reserved + 1, ~0u, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    LinuxOptions o = { .log = fuzz_devnull() };
    LinuxProcess *p;
    CPULinxState *env;
    FuzzReader in = { data, size };
    uint8_t page[0x1000];
    int64_t last_fd = 3;
    Call c;

    if (!sf.ready || size > 4096) {
        return 0;
    }
    p = linux_process_new(&o);
    env = calloc(1, sizeof(*env));
    if (!p || !env) {
        abort();
    }
    for (unsigned i = 0; i < sf.nreserved; i++) {
        linux_process_reserve_fd(p, sf.reserved[i]);
    }
    guest_mem_map(p->mem, BUF_BASE, BUF_SIZE, GM_PROT_READ | GM_PROT_WRITE, false);
    /* The buffer: bytes from the input, then the path strings. */
    for (uint64_t off = 0; off < BUF_SIZE - 0x1000; off += sizeof(page)) {
        for (size_t i = 0; i < sizeof(page); i++) {
            page[i] = size ? data[(off + i) % size] : 0;
        }
        guest_mem_write(p->mem, BUF_BASE + off, page, sizeof(page), NULL);
    }
    memset(page, 0, sizeof(page));
    for (unsigned i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        snprintf((char *)page + 64 * i, 64, "%s", paths[i]);
    }
    guest_mem_write(p->mem, BUF_BASE + BUF_SIZE - 0x1000, page, sizeof(page), NULL);
    p->brk_start = p->brk_cur = 0x800000;
    /* The CPU as linux-user's attach makes it (linux-user/cpu-loop.c),
     * without the exec loop: nothing runs here. */
    linx_cpu_reset(env, 0x10000, LINUX_USER_ACR);
    env->engine.mem = p->mem;
    env->gpr[LINX_REG_SP] = BUF_BASE + BUF_SIZE - 0x1000;
    p->env = env;

    if (chdir("/box") != 0) {
        abort();
    }
    FuzzQuiet q;
    fuzz_quiet_begin(&q); /* guest death reports */
    set_timer(true);
    for (unsigned n = 0; n < MAX_CALLS && !p->exited && next_call(&in, &last_fd, &c); n++) {
        LinuxSyscallAction act;
        int64_t r;
        for (int i = 0; i < 6; i++) {
            env->gpr[LINX_REG_A0 + i] = c.a[i];
        }
        env->gpr[LINX_REG_A7] = c.nr;
        act = linux_syscall(p, env);
        r = (int64_t)env->gpr[LINX_REG_A0];
        if (act == LINUX_SYSCALL_CONTINUE && r < -4095) {
            fuzz_fail(data, size, "syscall %llu returned %lld: not a value or -errno",
                      (unsigned long long)c.nr, (long long)r);
        }
        if (r >= 0 && r < 1024) {
            last_fd = r;
        }
        n_calls++;
        r >= 0 ? n_ok++ : n_errno++;
        if (act == LINUX_SYSCALL_EXIT) {
            break;
        }
        if (act == LINUX_SYSCALL_SIGNAL) {
            linx_cpu_sync_block_state(env);
            if (!linux_signal_deliver(p, env)) {
                break;
            }
        }
    }
    set_timer(false);
    fuzz_quiet_end(&q);
    for (unsigned i = 0; i < sf.nreserved; i++) {
        struct stat st;
        if (fstat(sf.reserved[i], &st) != 0 || st.st_ino != sf.reserved_ino[i]) {
            fuzz_fail(data, size, "the guest changed the harness's descriptor %d", sf.reserved[i]);
        }
    }
    close_guest_fds();
    linux_process_free(p);
    free(env);
    umask(sf.umask);
    if (chdir("/") != 0) {
        abort();
    }
    make_box();
    return 0;
}

/* ---- generated inputs ------------------------------------------------------- */

long fuzz_generated(long count)
{
    static uint8_t buf[512];
    FuzzRng r = { 0x3c6ef372fe94f82bull };

    if (!sf.ready) {
        return -1;
    }
    for (long i = 0; i < count; i++) {
        size_t n = 0;
        for (unsigned k = 0, m = 1 + fuzz_rndn(&r, 8); k < m && n < sizeof(buf) - 64; k++) {
            buf[n++] = (uint8_t)fuzz_rndn(&r, 256);
            if (buf[n - 1] >= 224) {
                buf[n++] = (uint8_t)fuzz_rnd(&r);
                buf[n++] = (uint8_t)fuzz_rnd(&r);
            }
            for (int a = 0; a < 6; a++) {
                uint8_t kind = (uint8_t)fuzz_rnd(&r);
                unsigned extra[] = { 1, 8, 2, 1, 0, 2, 1, 4, 0 };
                buf[n++] = kind;
                for (unsigned e = 0; e < extra[kind % 9]; e++) {
                    buf[n++] = (uint8_t)fuzz_rnd(&r);
                }
            }
        }
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("%s: %ld system calls, %ld succeeded, %ld returned -errno\n", fuzz_target_name, n_calls,
           n_ok, n_errno);
    if (!n_ok || !n_errno) {
        fuzz_fail(buf, 0, "the generated calls never reach one of the outcomes");
    }
    return count;
}
