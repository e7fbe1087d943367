package com.acme.stats;

public class Average {
    public double of(int[] values) {
        int sum = 0;
        for (int value : values) {
            sum += value;
        }
        return sum / values.length;
    }
}
