package com.acme.billing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatementTest {
    @Test
    void listsUnpaidInvoices() {
        List<Invoice> invoices = List.of(new Invoice("Ada", 1250, LocalDate.of(2026, 1, 5)), new Invoice("Bob", 0, LocalDate.of(2026, 1, 6)));
        assertEquals("Ada owes 12.50\n", new Statement().render(invoices));
    }
}
