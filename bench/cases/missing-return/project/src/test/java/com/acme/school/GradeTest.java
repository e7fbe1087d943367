package com.acme.school;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GradeTest {

    @Test
    void givesA() {
        assertEquals("A", new Grade().letterFor(95));
    }

    @Test
    void givesC() {
        assertEquals("C", new Grade().letterFor(40));
    }
}
