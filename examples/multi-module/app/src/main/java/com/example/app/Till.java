package com.example.app;

import com.example.core.Money;

public class Till {
    private Money total = new Money(0);

    public void ring(long cents) {
        total = total.plus(new Money(cents));
    }

    public Money total() {
        return total;
    }
}
