package com.acme.stats;

/** Sums and averages of measurements. */
public class Statistics {

    public int total(int[] values) {
        int sum = 0;
        for (int i = 0; i < values.lenght; i++) {
            sum += values[i];
        }
        return sum;
    }
}
