package com.acme.school;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GradesTest {

    @Test
    void ninetyFiveIsA() {
        assertEquals("A", Grades.letter(95.0));
    }

    @Test
    void seventyFiveIsC() {
        assertEquals("C", Grades.letter(75.0));
    }

    @Test
    void fiftyIsD() {
        assertEquals("D", Grades.letter(50.0));
    }

    @Test
    void seventyIsC() {
        assertEquals("C", Grades.letter(70.0));
    }
}
