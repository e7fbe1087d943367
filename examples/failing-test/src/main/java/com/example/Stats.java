package com.example;

public final class Stats {
    private Stats() {
    }

    /** Sum of the values from index 0 to the last one. */
    public static int sum(int[] values) {
        int total = 0;
        for (int i = 1; i < values.length; i++) {
            total += values[i];
        }
        return total;
    }
}
