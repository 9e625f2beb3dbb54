package io.mqdesk.example.orders;

/** An order as it travels on the "orders" topic (JSON). */
public record Order(long id, String item, int quantity) {
}
