package mqdesk.interop.spring;

import java.util.List;

/** The POJO sent with convertAndSend and received by {@link OrderListener}: JSON on the wire (Jackson). */
public record Order(long id, String customer, double amount, List<String> items) {
}
