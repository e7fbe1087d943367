package com.acme.greet;

public class Greeter {
    public String greeting(String name) {
        return "Hello, " + name;
    }
}
