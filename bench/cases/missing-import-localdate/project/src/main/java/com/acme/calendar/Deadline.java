package com.acme.calendar;

public class Deadline {
    public LocalDate dueAfter(LocalDate start, int days) {
        return start.plusDays(days);
    }
}
