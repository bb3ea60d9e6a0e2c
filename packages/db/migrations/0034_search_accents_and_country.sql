-- Keyword search without accents ("hotel de paris" finds "Hôtel de Paris", and the reverse): the
-- words of the document and of the query are folded by search_fold, our own function rather than
-- the unaccent extension, so it is the same on PGlite and PostgreSQL and IMMUTABLE (an index
-- expression may use it). Latin letters with diacritics map to their base letter, lower case; the
-- few that are two letters (ß, æ, œ, þ) are replaced first. Everything else is left to to_tsvector.
CREATE FUNCTION search_fold(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
	SELECT translate(
		replace(replace(replace(replace(replace(replace(replace(value, 'ß', 'ss'), 'Æ', 'ae'), 'æ', 'ae'), 'Œ', 'oe'), 'œ', 'oe'), 'Þ', 'th'), 'þ', 'th'),
		'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝàáâãäåçèéêëìíîïðñòóôõöøùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħĨĩĪīĬĭĮįİıĴĵĶķĸĹĺĻļĽľĿŀŁłŃńŅņŇňŉŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŦŧŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣḤḥḦḧḨḩḪḫḬḭḮḯḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣṤṥṦṧṨṩṪṫṬṭṮṯṰṱṲṳṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰựỲỳỴỵỶỷỸỹ',
		'aaaaaaceeeeiiiidnoooooouuuuyaaaaaaceeeeiiiidnoooooouuuuyyaaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiiijjkkkllllllllllnnnnnnnoooooorrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzsoouuaaiioouuuuuuuuuuaaaaggkkoooojggnnaaaaaaeeeeiiiioooorrrruuuusstthhaaeeooooooooyyaabbbbbbccddddddddddeeeeeeeeeeffgghhhhhhhhhhiiiikkkkkkllllllllmmmmmmnnnnnnnnoooooooopppprrrrrrrrssssssssssttttttttuuuuuuuuuuvvvvwwwwwwwwwwxxxxyyzzzzzzhtwyaaaaaaaaaaaaaaaaaaaaaaaaeeeeeeeeeeeeeeeeiiiioooooooooooooooooooooooouuuuuuuuuuuuuuyyyyyyyy')
$$;--> statement-breakpoint
-- The document (see schema/business-search.ts) with its words folded and one more lexeme, "in
-- country <CC>" (the listing's own country, as it shows it), so a country filter is one more GIN
-- intersection, as a city is.
CREATE FUNCTION business_search_document(name text, services text[], keywords text[], usp text, tagline text, description text, city_id integer, country text)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT setweight(to_tsvector('simple', search_fold(coalesce(name, ''))), 'A')
		|| setweight(to_tsvector('simple', search_fold(immutable_join(services) || ' ' || immutable_join(keywords))), 'B')
		|| setweight(to_tsvector('simple', search_fold(coalesce(usp, '') || ' ' || coalesce(tagline, ''))), 'C')
		|| setweight(to_tsvector('simple', search_fold(coalesce(description, ''))), 'D')
		|| array_to_tsvector(ARRAY['in city ' || city_id, 'in country ' || coalesce(country, '')])
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION sync_business_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO business_search (business_id, city_id, plan_tier, status, subscription_expires_at, name, document)
		SELECT n.id, n.city_id, n.plan_tier, n.status, n.subscription_expires_at, n.name,
			business_search_document(n.name, n.services, n.keywords, n.usp, n.tagline, n.description, n.city_id, n.country)
		FROM new_rows n;
	ELSE
		INSERT INTO business_search (business_id, city_id, plan_tier, status, subscription_expires_at, name, document)
		SELECT n.id, n.city_id, n.plan_tier, n.status, n.subscription_expires_at, n.name,
			business_search_document(n.name, n.services, n.keywords, n.usp, n.tagline, n.description, n.city_id, n.country)
		FROM new_rows n JOIN old_rows o ON o.id = n.id
		WHERE (n.city_id, n.country, n.plan_tier, n.status, n.subscription_expires_at, n.name, n.services, n.keywords, n.usp, n.tagline, n.description)
			IS DISTINCT FROM (o.city_id, o.country, o.plan_tier, o.status, o.subscription_expires_at, o.name, o.services, o.keywords, o.usp, o.tagline, o.description)
		ON CONFLICT (business_id) DO UPDATE SET
			city_id = excluded.city_id, plan_tier = excluded.plan_tier, status = excluded.status,
			subscription_expires_at = excluded.subscription_expires_at, name = excluded.name, document = excluded.document;
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
DROP FUNCTION business_search_document(text, text[], text[], text, text, text, integer);--> statement-breakpoint
-- Existing rows: their documents again, folded and with their country.
UPDATE business_search s SET document = business_search_document(b.name, b.services, b.keywords, b.usp, b.tagline, b.description, b.city_id, b.country)
FROM businesses b WHERE b.id = s.business_id;--> statement-breakpoint
DROP INDEX "buyer_questions_text_idx";--> statement-breakpoint
CREATE INDEX "buyer_questions_text_idx" ON "buyer_questions" USING gin (to_tsvector('simple', search_fold("question" || ' ' || coalesce("answer", ''))));
