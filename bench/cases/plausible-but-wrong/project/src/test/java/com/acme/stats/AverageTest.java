package com.acme.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AverageTest {

    @Test
    void keepsFraction() {
        assertEquals(2.5, new Average().of(new int[] {2, 3}));
    }
}
