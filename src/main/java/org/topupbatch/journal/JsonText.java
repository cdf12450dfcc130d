package org.topupbatch.journal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.List;

/**
 * Lists of strings (extra headers, extra cells) stored as JSON text: the one representation
 * H2 and PostgreSQL both hold in a plain VARCHAR, and still readable with any SQL client.
 */
final class JsonText {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() { };

    private JsonText() {
    }

    static String write(List<String> values) {
        if (values == null) {
            return null;
        }
        try {
            return MAPPER.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new JournalException("cannot write a list of strings as JSON", e);
        }
    }

    /** A missing value reads as the empty list, so callers never meet null. */
    static List<String> read(String json) {
        if (json == null || json.isEmpty()) {
            return List.of();
        }
        try {
            return MAPPER.readValue(json, STRINGS);
        } catch (JsonProcessingException e) {
            throw new JournalException("journal holds unreadable JSON: " + json, e);
        }
    }
}
