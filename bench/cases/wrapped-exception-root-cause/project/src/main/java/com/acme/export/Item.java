package com.acme.export;

public record Item(String name, int quantity, String note) {
}
