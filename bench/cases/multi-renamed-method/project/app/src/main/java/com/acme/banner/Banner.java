package com.acme.banner;

import com.acme.greet.Greeter;

public class Banner {
    public String render(String name) {
        return "*** " + new Greeter().sayHello(name) + " ***";
    }
}
