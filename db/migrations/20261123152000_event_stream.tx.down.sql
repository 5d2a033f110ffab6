DROP TRIGGER events_commit ON events;
DROP FUNCTION commerce_event_commit();
