package org.topupbatch.notify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One event to tell: its name (a word of the contract, {@code batch_reported}), a subject and a few
 * lines of plain text for people, and its fields for machines. Nothing secret is ever put in one:
 * the callers hand over file names, counts, amounts and reasons only.
 */
public record Notice(String event, String subject, String text, Map<String, Object> fields) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public Notice {
        fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** {@code {"event": ..., <fields>}} for an HTTP endpoint. */
    public String json() {
        ObjectNode node = JSON.createObjectNode();
        node.put("event", event);
        node.put("subject", subject);
        fields.forEach((k, v) -> node.set(k, JSON.valueToTree(v)));
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The subject and the text, for a person. */
    public String plain() {
        return subject + "\n" + text;
    }
}
