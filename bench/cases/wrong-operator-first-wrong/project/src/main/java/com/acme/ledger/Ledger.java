package com.acme.ledger;

public class Ledger {
    public int balanceAfter(int balance, int deposit) {
        return balance - deposit;
    }
}
