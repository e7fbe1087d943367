package com.acme.names;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

public class Names {
    private final List<String> names = new ArrayList<>();

    public void add(String name) {
        names.add(name);
    }

    public List<String> sorted() {
        List copy = new ArrayList<>(names);
        Collections.sort(copy);
        return copy;
    }
}
