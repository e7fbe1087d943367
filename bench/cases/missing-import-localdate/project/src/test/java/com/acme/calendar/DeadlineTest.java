package com.acme.calendar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DeadlineTest {

    @Test
    void addsDays() {
        assertEquals(java.time.LocalDate.of(2024, 3, 4), new Deadline().dueAfter(java.time.LocalDate.of(2024, 2, 28), 5));
    }
}
