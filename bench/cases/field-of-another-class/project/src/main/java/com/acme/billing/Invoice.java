package com.acme.billing;

import java.time.LocalDate;

/** An issued invoice; amounts are in cents. */
public class Invoice {
    public final String customer;
    public final long balanceCents;
    public final LocalDate issuedOn;

    public Invoice(String customer, long balanceCents, LocalDate issuedOn) {
        this.customer = customer;
        this.balanceCents = balanceCents;
        this.issuedOn = issuedOn;
    }

    public boolean isPaid() {
        return balanceCents == 0;
    }
}
