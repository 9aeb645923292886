#!/usr/bin/env python3
"""Prints the tables and polynomials of bsx's own vector kernels (float pow, double log and pow),
include/bsx/detail/own_vector_math.hpp.

Needs mpmath (Debian: python3-mpmath). The argument x = 2^k z, z in [0x1.6ap-1, 0x1.6ap0),
falls in one of 16 intervals (the top 4 bits of z's significand, after subtracting the
offset); each has a reciprocal 1/c with 5 significant bits, so that r = z/c - 1 is exact in
one fused multiply-add (1 for the interval holding 1, so that log(1) and pow(1, y) are exact),
and log2(c) and ln(c). ln(c) is split into a multiple of 2^-42 and the rest, as is ln 2, so
that k ln2_hi + ln_c_hi is exact. The polynomials are near-minimax (Chebyshev fits); the
script prints their largest errors.
"""
import struct

import mpmath

mpmath.mp.prec = 200
OFFSET = 0x3FE6A00000000000  # bits of 0x1.6ap-1, near 1/sqrt(2)
HI_GRID = mpmath.mpf(2) ** -42


def as_double(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def hex_list(values):
    return ", ".join(float(v).hex() for v in values)


def split(value):
    """value as (a multiple of 2^-42, the rest rounded to double)."""
    hi = mpmath.nint(value / HI_GRID) * HI_GRID
    return float(hi), float(value - hi)


def fit(function, interval, terms):
    """A near-minimax polynomial (Chebyshev fit), lowest degree first, and its largest
    absolute error over 4000 points of the interval."""
    poly = mpmath.chebyfit(function, interval, terms)[::-1]
    a, b = interval
    points = (a + (b - a) * mpmath.mpf(i) / 3999 for i in range(4000))
    return poly, max(abs(mpmath.polyval(poly[::-1], x) - function(x)) for x in points)


def main():
    reciprocals, r_lo, r_hi = [], 0.0, 0.0
    for i in range(16):
        lo, hi = as_double(OFFSET + (i << 48)), as_double(OFFSET + ((i + 1) << 48))
        mantissa, exponent = mpmath.frexp(2 / mpmath.mpf(lo + hi))
        inverse = float(mpmath.ldexp(mpmath.nint(mantissa * 32), int(exponent) - 5))
        if lo <= 1.0 < hi:
            inverse = 1.0
        reciprocals.append(inverse)
        r_lo, r_hi = min(r_lo, lo * inverse - 1), max(r_hi, hi * inverse - 1)
    ln_c = [split(-mpmath.log(c)) for c in reciprocals]
    ln2 = mpmath.log(2)
    log2_quotient = lambda r: mpmath.log1p(r) / r / ln2 if r else 1 / ln2  # noqa: E731
    log_tail = lambda r: (mpmath.log1p(r) - r + r**2 / 2) / r**3 if r else mpmath.mpf(1) / 3  # noqa: E731
    log2_poly, log2_err = fit(log2_quotient, [r_lo, r_hi], 6)
    log_poly, log_err = fit(log_tail, [r_lo, r_hi], 9)
    exp2_quotient = lambda f: (mpmath.power(2, f) - 1) / f if f else ln2  # noqa: E731
    exp2_poly, exp2_err = fit(exp2_quotient, [-1 / 32, 1 / 32], 3)
    exp_tail = lambda f: (mpmath.expm1(f) - f) / f**2 if f else mpmath.mpf(0.5)  # noqa: E731
    exp_poly, exp_err = fit(exp_tail, [-0.022, 0.022], 6)
    ln2_16_hi = mpmath.nint(ln2 / 16 * mpmath.mpf(2) ** 42) / mpmath.mpf(2) ** 42  # 38 bits: n ln2_16_hi exact
    print(f"// r in [{r_lo}, {r_hi}]")
    print(f"inverse_c = {{{hex_list(reciprocals)}}}")
    print(f"log2_c = {{{hex_list(mpmath.log(1 / mpmath.mpf(c), 2) for c in reciprocals)}}}")
    print(f"ln_c_hi = {{{hex_list(h for h, _ in ln_c)}}}")
    print(f"ln_c_lo = {{{hex_list(l for _, l in ln_c)}}}")
    print("ln2_hi, ln2_lo = " + hex_list(split(ln2)))
    exp2_j = [mpmath.power(2, mpmath.mpf(j) / 16) for j in range(16)]
    print(f"exp2_j = {{{hex_list(exp2_j)}}}")
    print(f"exp2_j_lo = {{{hex_list(t - float(t) for t in exp2_j)}}}")
    print("ln2_16_hi, ln2_16_lo = " + hex_list([ln2_16_hi, ln2 / 16 - ln2_16_hi]))
    print(f"// log2(1 + r) / r, lowest first, relative error 2^{float(mpmath.log(log2_err * ln2, 2)):.1f}")
    print(f"log2_poly = {{{hex_list(log2_poly)}}}")
    print(f"// (ln(1 + r) - r + r^2 / 2) / r^3, absolute error 2^{float(mpmath.log(log_err, 2)):.1f}")
    print(f"log_poly = {{{hex_list(log_poly)}}}")
    print(f"// (2^f - 1) / f, |f| <= 1/32; 1 + f p(f) within 2^{float(mpmath.log(exp2_err / 32, 2)):.1f} of 2^f")
    print(f"exp2_poly = {{{hex_list(exp2_poly)}}}")
    print(f"// (e^f - 1 - f) / f^2, |f| <= 0.022, absolute error 2^{float(mpmath.log(exp_err, 2)):.1f}")
    print(f"exp_poly = {{{hex_list(exp_poly)}}}")


if __name__ == "__main__":
    main()
