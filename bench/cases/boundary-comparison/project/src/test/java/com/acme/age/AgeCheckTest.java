package com.acme.age;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AgeCheckTest {

    @Test
    void eighteenIsAdult() {
        assertEquals(true, new AgeCheck().isAdult(18));
    }

    @Test
    void seventeenIsNot() {
        assertEquals(false, new AgeCheck().isAdult(17));
    }
}
