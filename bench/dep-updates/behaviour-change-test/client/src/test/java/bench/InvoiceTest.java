package bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class InvoiceTest {
  @Test
  void roundsHalfUp() {
    assertEquals(3, new Invoice().total(2.5));
  }
}
