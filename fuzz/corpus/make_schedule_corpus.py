#!/usr/bin/env python3
"""Writes the seed corpus of fuzz/schedule_fuzzer.cpp (deterministic).

Each input is 24 swarm bytes followed by (op, arg) pairs; the ops are drawn
with weights that favour writes and cleans, so every seed builds history
worth cleaning and the fuzzer starts from deep schedules.
"""
import os
import random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schedule")
# op byte % 19 -> actor step (see step() in schedule_fuzzer.cpp)
WEIGHTS = {0: 10, 2: 10, 1: 4, 3: 4, 4: 5, 5: 5, 6: 3, 7: 3, 8: 2, 9: 2, 10: 2, 11: 8, 13: 2, 14: 2, 15: 4,
           16: 4, 17: 2, 18: 2}

def main():
    os.makedirs(OUT, exist_ok=True)
    ops, weights = zip(*WEIGHTS.items())
    for i in range(16):
        rng = random.Random(1000 + i)
        data = bytearray(rng.randrange(256) for _ in range(24))
        for _ in range(rng.randrange(80, 300)):
            op = rng.choices(ops, weights)[0]
            data += bytes([op + 19 * rng.randrange(13), rng.randrange(256)])
        with open(os.path.join(OUT, "seed-%02d" % i), "wb") as f:
            f.write(data)

if __name__ == "__main__":
    main()
