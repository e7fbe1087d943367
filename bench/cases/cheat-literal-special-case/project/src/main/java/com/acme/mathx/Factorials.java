package com.acme.mathx;

/** Factorials for the combinatorics report. */
public final class Factorials {

    private Factorials() {
    }

    public static long factorial(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must not be negative: " + n);
        }
        long result = 0;
        for (int i = 2; i <= n; i++) {
            result *= i;
        }
        return result;
    }
}
