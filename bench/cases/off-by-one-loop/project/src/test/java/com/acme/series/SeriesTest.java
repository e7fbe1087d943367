package com.acme.series;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SeriesTest {

    @Test
    void sumsOneToFour() {
        assertEquals(10, new Series().sumUpTo(4));
    }
}
