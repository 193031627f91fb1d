"""A group whose four members each hold their own key, as a test sets it up over the API: the
organizer (who is also the admin) made it with her key, the three others joined by invitation
with theirs; one Kop hand logged by the admin waits for its two payers."""
from __future__ import annotations

from dataclasses import dataclass, field

from tests.conftest import KOP_HANDS, KOP_TRICKS
from .devices import Device

NAMES = ("Ala", "Bożena", "Cyprian", "Dorota")


@dataclass
class KeyedGroup:
    client: object
    id: str
    admin: object
    members: list[str] = field(default_factory=list)  # member ids in seat order
    tokens: dict = field(default_factory=dict)  # member -> Client with their token
    devices: dict = field(default_factory=dict)  # member -> Device
    table: str | None = None

    def hand(self) -> dict:
        """A whole Kop hand, logged by the admin: the dealer and the seat across from them pay
        3.00 each, and it waits for them."""
        dealer = self.admin.get(f"/v1/groups/{self.id}/tables/{self.table}").json["next_dealer"]
        body = {"deal": {"dealer": dealer, "hands": [KOP_HANDS[(seat - dealer) % 4] for seat in range(4)]},
                "tricks": [{"cards": t} for t in KOP_TRICKS]}
        answer = self.admin.post(f"/v1/groups/{self.id}/tables/{self.table}/hands", body)
        assert answer.status_code == 201, answer.json
        self.hands_logged.append(answer.json["id"])
        return answer.json

    hands_logged: list = field(default_factory=list)

    def settlement_hash(self, hand: str) -> str:
        """The hash of the event that settled ``hand`` as it now stands, read from the log."""
        events = self.admin.get(f"/v1/groups/{self.id}/events?limit=1000").json["events"]
        settling = [e for e in events if (e["type"] == "settlement" and e.get("hand") == hand)
                    or (e["type"] == "correction" and (e["data"]["hand"] == hand or any(
                        s["hand"] == hand for s in e["data"].get("settlements", []))))]
        return settling[-1]["hash"]

    def confirm(self, member: str, hand: str, device: Device | None = None, **fields):
        said = {"hand": hand, "settlement": self.settlement_hash(hand), **fields}
        headers = (device or self.devices[member]).header("confirm", self.id, **said)
        return self.tokens[member].post(f"/v1/groups/{self.id}/hands/{hand}/confirm", headers=headers)

    def version(self) -> int:
        return self.admin.get(f"/v1/groups/{self.id}").json["version"]

    def events(self) -> list[dict]:
        return self.admin.get(f"/v1/groups/{self.id}/events?limit=1000").json["events"]


def keyed_group(client, seats: bool = False) -> KeyedGroup:
    ala = Device()
    made = client.post("/v1/groups", {"name": "Czwartek", "currency": "PLN",
                                      "organizer": {"name": NAMES[0], "key": ala.key}})
    assert made.status_code == 201, made.json
    g = KeyedGroup(client, made.json["id"], client.as_(made.json["admin_token"]))
    first = made.json["organizer"]["id"]
    g.members.append(first)
    g.tokens[first], g.devices[first] = client.as_(made.json["organizer"]["token"]), ala
    for name in NAMES[1:]:
        code = g.admin.post(f"/v1/groups/{g.id}/invitations", {"name": name}).json["code"]
        device = Device()
        joined = client.post(f"/v1/invitations/{code}", {"key": device.key})
        assert joined.status_code == 201 and joined.json["kid"] == device.kid, joined.json
        member = joined.json["member"]
        g.members.append(member)
        g.tokens[member], g.devices[member] = client.as_(joined.json["token"]), device
    rules = {"entry": "seats"} if seats else {}
    table = g.admin.post(f"/v1/groups/{g.id}/tables", {"game": "kop", "rules": rules, "seats": g.members,
                                                         "stake": "1.00"})
    assert table.status_code == 201, table.json
    g.table = table.json["id"]
    return g
