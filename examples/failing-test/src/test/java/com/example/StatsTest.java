package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class StatsTest {
    @Test
    void sumsEveryValue() {
        assertEquals(6, Stats.sum(new int[] {1, 2, 3}));
    }

    @Test
    void sumOfNothingIsZero() {
        assertEquals(0, Stats.sum(new int[0]));
    }
}
