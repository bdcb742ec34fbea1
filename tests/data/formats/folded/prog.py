"""A small program for cctviz's format fixtures: two threads, a recursion and a loop."""

import threading


def leaf(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


def fib(n):
    if n < 2:
        return leaf(200)
    return fib(n - 1) + fib(n - 2)


def work(rounds):
    out = 0
    for _ in range(rounds):
        out += leaf(100_000)
        out += fib(12)
    return out


def main():
    side = threading.Thread(target=work, args=(40,), name="side")
    side.start()
    work(40)
    side.join()


if __name__ == "__main__":
    main()
