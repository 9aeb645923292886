#!/usr/bin/env python3
"""Prints the tables and polynomials of bsx's own float pow (include/bsx/detail/vector_pow.hpp).

Needs mpmath (Debian: python3-mpmath). The argument x = 2^k z, z in [0x1.6ap-1, 0x1.6ap0),
falls in one of 16 intervals (the top 4 bits of z's significand, after subtracting the offset);
each has a reciprocal 1/c with 6 significant bits (1 for the interval holding 1, so that
pow(1, y) is exactly 1) and log2(c). log2(1 + r), r = z/c - 1, and 2^f, |f| <= 1/32, are
near-minimax polynomials (Chebyshev fits); the script prints their largest relative errors.
"""
import struct

import mpmath

mpmath.mp.prec = 160
OFFSET = 0x3FE6A00000000000  # bits of 0x1.6ap-1, near 1/sqrt(2)


def as_double(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def hex_list(values):
    return ", ".join(float(v).hex() for v in values)


def main():
    reciprocals, logs = [], []
    r_lo = r_hi = 0.0
    for i in range(16):
        lo, hi = as_double(OFFSET + (i << 48)), as_double(OFFSET + ((i + 1) << 48))
        if lo <= 1.0 < hi:
            inverse = 1.0
        else:
            mantissa, exponent = mpmath.frexp(2 / mpmath.mpf(lo + hi))
            inverse = float(mpmath.ldexp(mpmath.nint(mantissa * 64), int(exponent) - 6))
        reciprocals.append(inverse)
        logs.append(-mpmath.log(inverse, 2))
        r_lo, r_hi = min(r_lo, lo * inverse - 1), max(r_hi, hi * inverse - 1)
    ln2 = mpmath.log(2)
    log2_quotient = lambda r: mpmath.log1p(r) / r / ln2 if r else 1 / ln2  # noqa: E731
    log_poly, log_err = mpmath.chebyfit(log2_quotient, [r_lo, r_hi], 7, error=True)
    exp_poly, exp_err = mpmath.chebyfit(lambda f: mpmath.power(2, f), [-1 / 32, 1 / 32], 5, error=True)
    print(f"// r in [{r_lo}, {r_hi}]")
    print(f"inverse_c = {{{hex_list(reciprocals)}}}")
    print(f"log2_c = {{{hex_list(logs)}}}")
    print(f"exp2_j = {{{hex_list(mpmath.power(2, mpmath.mpf(j) / 16) for j in range(16))}}}")
    print(f"// log2(1 + r) / r, lowest first, relative error 2^{float(mpmath.log(log_err * ln2, 2)):.1f}")
    print(f"log2_poly = {{{hex_list(log_poly[::-1])}}}")
    print(f"// 2^f, relative error 2^{float(mpmath.log(exp_err, 2)):.1f}")
    print(f"exp2_poly = {{{hex_list(exp_poly[::-1])}}}")


if __name__ == "__main__":
    main()
