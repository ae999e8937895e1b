/*
 * The main() of a fuzz target built without libFuzzer (every compiler;
 * meson tests in suite "fuzz"):
 *
 *   fuzz-X COUNT         COUNT generated inputs (the target's generator)
 *   fuzz-X PATH...       each file, and each file in each directory, as one
 *                        input: the committed corpus (tests/fuzz/corpus/X/,
 *                        crash reproducers and seeds) replayed as a
 *                        regression test; a PATH with no file in it fails
 *
 * Under libFuzzer (-DLINX_FUZZ_LIBFUZZER, tests/fuzz/run.sh) libFuzzer's
 * own main() is used instead and this file is not compiled.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz-target.h"

#define FUZZ_MAX_FILE (16u << 20)

typedef struct Input {
    uint8_t *data;
    size_t size;
} Input;

typedef struct Inputs {
    Input *v;
    size_t n, cap;
} Inputs;

static int load_file(Inputs *in, const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    size_t n;

    if (!f) {
        fprintf(stderr, "%s: cannot open %s: %s\n", fuzz_target_name, path, strerror(errno));
        return -1;
    }
    buf = malloc(FUZZ_MAX_FILE);
    if (!buf) {
        fclose(f);
        return -1;
    }
    n = fread(buf, 1, FUZZ_MAX_FILE, f);
    fclose(f);
    if (in->n == in->cap) {
        in->cap = in->cap ? 2 * in->cap : 64;
        in->v = realloc(in->v, in->cap * sizeof(Input));
        if (!in->v) {
            return -1;
        }
    }
    in->v[in->n].data = realloc(buf, n ? n : 1);
    in->v[in->n++].size = n;
    return 1;
}

/* Load every regular file under @path; the number loaded, -1 on an
 * error.  (All inputs are read before the target's set-up, which may
 * change what paths mean: fuzz-syscall chroot()s.) */
static int load_path(Inputs *in, const char *path)
{
    struct stat st;
    struct dirent **names;
    int n, total = 0;

    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: %s: %s\n", fuzz_target_name, path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        return load_file(in, path);
    }
    n = scandir(path, &names, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "%s: %s: %s\n", fuzz_target_name, path, strerror(errno));
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.' && total >= 0) {
            char sub[4096];
            int r;
            snprintf(sub, sizeof(sub), "%s/%s", path, names[i]->d_name);
            r = load_path(in, sub);
            total = r < 0 ? -1 : total + r;
        }
        free(names[i]);
    }
    free(names);
    return total;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    long count;
    Inputs in = { 0 };

    if (argc < 2) {
        fprintf(stderr, "usage: %s COUNT | PATH...\n", fuzz_target_name);
        return 2;
    }
    count = strtol(argv[1], &end, 10);
    if (argc == 2 && *end == '\0' && count > 0) {
        long done;
        LLVMFuzzerInitialize(&argc, &argv);
        done = fuzz_generated(count);
        if (done < 0) {
            return 77; /* the target cannot run here (it said why): skip */
        }
        printf("%s: %ld generated inputs, no invariant broken\n", fuzz_target_name, done);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        int r = load_path(&in, argv[i]);
        if (r < 0) {
            return 1;
        }
        if (r == 0) {
            fprintf(stderr, "%s: %s holds no input (a corpus must not be empty)\n",
                    fuzz_target_name, argv[i]);
            return 1;
        }
    }
    LLVMFuzzerInitialize(&argc, &argv);
    for (size_t i = 0; i < in.n; i++) {
        LLVMFuzzerTestOneInput(in.v[i].data, in.v[i].size);
        free(in.v[i].data);
    }
    free(in.v);
    printf("%s: %zu inputs replayed, no invariant broken\n", fuzz_target_name, in.n);
    return 0;
}
