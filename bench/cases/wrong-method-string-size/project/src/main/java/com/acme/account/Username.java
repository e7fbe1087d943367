package com.acme.account;

public class Username {
    public boolean isValid(String name) {
        return name != null && name.size() >= 3;
    }
}
