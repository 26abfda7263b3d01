-- version 1's date CHECKs let a non-date through (date() of one is NULL, and a NULL
-- CHECK passes). SQLite cannot change a CHECK in place, so triggers refuse them instead.
CREATE TRIGGER tools_checked_on_is_a_date BEFORE INSERT ON tools
  WHEN NEW.pricing_checked_on IS NOT NULL
   AND date(NEW.pricing_checked_on) IS NOT NEW.pricing_checked_on
BEGIN SELECT RAISE(ABORT, 'pricing_checked_on must be a date YYYY-MM-DD'); END;
CREATE TRIGGER tools_checked_on_stays_a_date BEFORE UPDATE OF pricing_checked_on ON tools
  WHEN NEW.pricing_checked_on IS NOT NULL
   AND date(NEW.pricing_checked_on) IS NOT NEW.pricing_checked_on
BEGIN SELECT RAISE(ABORT, 'pricing_checked_on must be a date YYYY-MM-DD'); END;
CREATE TRIGGER comparisons_published_on_is_a_date BEFORE INSERT ON comparisons
  WHEN NEW.published_on IS NOT NULL AND date(NEW.published_on) IS NOT NEW.published_on
BEGIN SELECT RAISE(ABORT, 'published_on must be a date YYYY-MM-DD'); END;
CREATE TRIGGER comparisons_published_on_stays_a_date
  BEFORE UPDATE OF published_on ON comparisons
  WHEN NEW.published_on IS NOT NULL AND date(NEW.published_on) IS NOT NEW.published_on
BEGIN SELECT RAISE(ABORT, 'published_on must be a date YYYY-MM-DD'); END;
