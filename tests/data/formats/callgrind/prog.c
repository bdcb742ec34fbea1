/* A small program for cctviz's format fixtures: a recursion, two leaves and a loop. */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

static double leaf_add(int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += i * 0.5;
    return s;
}

static double leaf_mul(int n) {
    double s = 1.0;
    for (int i = 1; i < n; i++) s *= 1.0000001;
    return s;
}

static long fib(int n) {
    if (n < 2) { sink += leaf_add(50); return n; }
    return fib(n - 1) + fib(n - 2);
}

static void work(int rounds) {
    for (int r = 0; r < rounds; r++) {
        sink += leaf_add(200000);
        sink += leaf_mul(100000);
        sink += (double)fib(14);
    }
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 3;
    work(rounds);
    printf("%f\n", sink);
    return 0;
}
