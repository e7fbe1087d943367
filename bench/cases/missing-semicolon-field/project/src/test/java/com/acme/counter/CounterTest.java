package com.acme.counter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CounterTest {

    @Test
    void countsUp() {
        assertEquals(2, twice());
    }

    private static int twice() {
        Counter counter = new Counter();
        counter.next();
        return counter.next();
    }
}
