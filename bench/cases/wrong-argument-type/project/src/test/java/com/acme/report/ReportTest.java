package com.acme.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportTest {
    private final List<Map<String, String>> rows = List.of(Map.of("amount", "12.50"), Map.of("amount", "0.75"));

    @Test
    void countsRows() {
        assertEquals(2, new Report().count(rows));
    }

    @Test
    void showsTheFirstAmount() {
        assertEquals("first 12.50", new Report().firstAmount(rows));
    }
}
