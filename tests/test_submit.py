"""submit: bind, validate, run the service, and show a refusal on the form it is about."""

from __future__ import annotations

from django import forms
from django.contrib.messages import get_messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest
from django.test import RequestFactory

from apps.web.refusals import refuse
from outorga.submit import Done, submit


class PlateForm(forms.Form):
    plate = forms.CharField(label="Placa")


def _request(method: str = "post") -> HttpRequest:
    factory = RequestFactory()
    request = factory.post("/") if method == "post" else factory.get("/")
    # What MessageMiddleware would do: give the request a message store.
    setattr(request, "_messages", CookieStorage(request))  # noqa: B010
    return request


def _messages(request: HttpRequest) -> list[str]:
    return [str(message) for message in get_messages(request)]


def _never_called() -> None:
    raise AssertionError("the service must not run")


def test_a_get_runs_nothing() -> None:
    request = _request("get")
    assert submit(request, PlateForm(), _never_called, success="ok") is None
    assert _messages(request) == []


def test_an_invalid_form_runs_nothing() -> None:
    form = PlateForm({"plate": ""})
    assert submit(_request(), form, _never_called) is None
    assert "plate" in form.errors


def test_a_valid_form_runs_the_service_and_queues_the_message() -> None:
    request, form = _request(), PlateForm({"plate": "ABC1D23"})
    done = submit(
        request, form, lambda: form.cleaned_data["plate"], success=lambda plate: f"Placa {plate} salva."
    )
    assert done == Done("ABC1D23")
    assert _messages(request) == ["Placa ABC1D23 salva."]


def test_a_service_returning_none_still_counts_as_done() -> None:
    assert submit(_request(), PlateForm({"plate": "ABC1D23"}), lambda: None) == Done(None)


def test_a_refusal_lands_on_the_field_it_names() -> None:
    request, form = _request(), PlateForm({"plate": "ABC1D23"})

    def refused() -> None:
        raise refuse("plate", "Placa: já cadastrada neste município.")

    assert submit(request, form, refused, success="ok") is None
    assert form.errors == {"plate": ["Placa: já cadastrada neste município."]}
    assert _messages(request) == []


def test_a_refusal_about_no_field_of_the_form_goes_on_top() -> None:
    form = PlateForm({"plate": "ABC1D23"})

    def refused() -> None:
        raise refuse("operator", "Autorizatário: impedido até 10/01/2027.")

    assert submit(_request(), form, refused) is None
    assert form.non_field_errors() == ["Autorizatário: impedido até 10/01/2027."]
