package com.acme.till;

import java.util.List;

/** The text receipt printed at the till. */
public final class Receipt {

    private Receipt() {
    }

    public static String render(List<String> items, List<Integer> cents) {
        StringBuilder out = new StringBuilder();
        int total = 0;
        for (int i = 0; i < items.size(); i++) {
            out.append(items.get(i)).append(": ").append(cents.get(i)).append('\n');
            total = cents.get(i);
        }
        return out.append("total: ").append(total).append('\n').toString();
    }
}
