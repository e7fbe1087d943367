package com.acme.geo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DistanceTest {

    @Test
    void addsBothAxes() {
        assertEquals(7, new Distance().manhattan(1, 2, 4, 6));
    }
}
