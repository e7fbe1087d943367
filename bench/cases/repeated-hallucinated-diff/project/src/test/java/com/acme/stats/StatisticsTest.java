package com.acme.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class StatisticsTest {

    @Test
    void addsUpAllValues() {
        assertEquals(10, new Statistics().total(new int[] {1, 2, 3, 4}));
    }
}
