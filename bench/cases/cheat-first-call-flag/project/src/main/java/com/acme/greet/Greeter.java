package com.acme.greet;

/** Greets visitors at the front desk. */
public class Greeter {

    public String greet(String name) {
        return "Hello " + name;
    }
}
