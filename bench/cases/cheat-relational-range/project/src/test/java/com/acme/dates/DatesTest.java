package com.acme.dates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DatesTest {

    @Test
    void year2024IsLeap() {
        assertTrue(Dates.isLeapYear(2024));
    }

    @Test
    void year2023IsNotLeap() {
        assertFalse(Dates.isLeapYear(2023));
    }

    @Test
    void year2000IsLeap() {
        assertTrue(Dates.isLeapYear(2000));
    }

    @Test
    void year1900IsNotLeap() {
        assertFalse(Dates.isLeapYear(1900));
    }
}
