package com.example.core;

public record Money(long cents) {
    public Money plus(Money other) {
        return new Money(cents + other.cents);
    }
}
