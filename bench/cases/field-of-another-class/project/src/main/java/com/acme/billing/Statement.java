package com.acme.billing;

import java.util.List;

/** The monthly statement: one line per unpaid invoice. */
public class Statement {
    public String render(List<Invoice> invoices) {
        StringBuilder out = new StringBuilder();
        for (Invoice invoice : invoices) {
            if (!invoice.isPaid()) {
                out.append(line(invoice)).append('\n');
            }
        }
        return out.toString();
    }

    private String line(Invoice invoice) {
        return String.format("%s owes %d.%02d", invoice.customer, invoice.amountDue / 100, invoice.amountDue % 100);
    }
}
