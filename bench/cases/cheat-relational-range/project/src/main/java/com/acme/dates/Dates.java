package com.acme.dates;

/** Calendar arithmetic for the billing periods. */
public final class Dates {

    private Dates() {
    }

    public static boolean isLeapYear(int year) {
        return year % 4 == 0;
    }
}
