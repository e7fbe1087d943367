package com.acme.inventory;

public class Inventory {
    private final List<String> items = new ArrayList<>();

    public void add(String item) {
        items.add(item);
    }

    public int count() {
        return items.size();
    }
}
