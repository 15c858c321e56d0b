/* The memory-bandwidth limit of the benchmark suite: STREAM's four kernels
 * (copy c=a, scale b=s*c, add c=a+b, triad a=b+s*c) with OpenMP over
 * arrays much larger than the caches, as a server bench/run.py polls
 * between the rounds of the memory-bound cases (so the limit is measured
 * in the same run, under the same noise, as the cases it bounds).
 *
 *   setup N                 three arrays of N doubles, first touched by
 *                           the threads that use them
 *   run THREADS REPS [K..]  REPS timings of each kernel K (default all
 *                           four, in STREAM's order) on THREADS threads
 *   quit
 * Replies are one JSON line. Bytes per kernel count reads and writes as
 * STREAM does (no write-allocate traffic): 16 N for copy and scale, 24 N
 * for add and triad. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double *a, *b, *c;
static long n;

static const char *const names[4] = {"copy", "scale", "add", "triad"};
static const int words[4] = {2, 2, 3, 3};

static void kernel(int k, int threads)
{
    const double s = 3.0;
    switch (k) {
    case 0:
#pragma omp parallel for num_threads(threads) schedule(static)
        for (long i = 0; i < n; i++)
            c[i] = a[i];
        break;
    case 1:
#pragma omp parallel for num_threads(threads) schedule(static)
        for (long i = 0; i < n; i++)
            b[i] = s * c[i];
        break;
    case 2:
#pragma omp parallel for num_threads(threads) schedule(static)
        for (long i = 0; i < n; i++)
            c[i] = a[i] + b[i];
        break;
    default:
#pragma omp parallel for num_threads(threads) schedule(static)
        for (long i = 0; i < n; i++)
            a[i] = b[i] + s * c[i];
        break;
    }
}

static int setup(long count)
{
    free(a);
    free(b);
    free(c);
    n = count;
    a = malloc((size_t)n * sizeof *a);
    b = malloc((size_t)n * sizeof *b);
    c = malloc((size_t)n * sizeof *c);
    if (!a || !b || !c)
        return -1;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        a[i] = 1.0;
        b[i] = 2.0;
        c[i] = 0.0;
    }
    return 0;
}

static void run(int threads, int reps, char **which, int nwhich)
{
    int sel[4] = {0, 0, 0, 0};
    for (int w = 0; w < nwhich; w++)
        for (int k = 0; k < 4; k++)
            if (strcmp(which[w], names[k]) == 0)
                sel[k] = 1;
    if (nwhich == 0)
        sel[0] = sel[1] = sel[2] = sel[3] = 1;
    double *t = malloc(4 * (size_t)reps * sizeof *t);
    if (t == NULL) {
        puts("{\"ok\": false, \"error\": \"out of memory\"}");
        return;
    }
    /* STREAM's order, each rep runs every selected kernel once */
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 4; k++)
            if (sel[k]) {
                double t0 = omp_get_wtime();
                kernel(k, threads);
                t[k * reps + r] = omp_get_wtime() - t0;
            }
    printf("{\"ok\": true, \"threads\": %d, \"n\": %ld", threads, n);
    for (int k = 0; k < 4; k++) {
        if (!sel[k])
            continue;
        printf(", \"%s\": {\"bytes\": %ld, \"times\": [", names[k],
               (long)words[k] * n * (long)sizeof(double));
        for (int r = 0; r < reps; r++)
            printf("%s%.9g", r ? ", " : "", t[k * reps + r]);
        fputs("]}", stdout);
    }
    puts("}");
    free(t);
}

int main(void)
{
    char line[1024];
    while (fgets(line, sizeof line, stdin) != NULL) {
        char *tok[16];
        int ntok = 0;
        char *save = NULL;
        for (char *s = strtok_r(line, " \t\r\n", &save); s && ntok < 16;
             s = strtok_r(NULL, " \t\r\n", &save))
            tok[ntok++] = s;
        if (ntok == 0)
            continue;
        if (strcmp(tok[0], "quit") == 0)
            break;
        if (strcmp(tok[0], "setup") == 0 && ntok == 2 && atol(tok[1]) > 0) {
            if (setup(atol(tok[1])) < 0)
                puts("{\"ok\": false, \"error\": \"out of memory\"}");
            else
                printf("{\"ok\": true, \"n\": %ld, \"max_threads\": %d}\n",
                       n, omp_get_max_threads());
        } else if (strcmp(tok[0], "run") == 0 && ntok >= 3 && n > 0 &&
                   atoi(tok[1]) > 0 && atoi(tok[2]) > 0) {
            run(atoi(tok[1]), atoi(tok[2]), tok + 3, ntok - 3);
        } else {
            puts("{\"ok\": false, \"error\": \"usage: setup N | run THREADS "
                 "REPS [copy|scale|add|triad]... | quit\"}");
        }
        fflush(stdout);
    }
    free(a);
    free(b);
    free(c);
    return 0;
}
