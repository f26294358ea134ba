"""The encoders a stance model starts from: a cut encoder unpacks the weights it shares and
keeps its lower layers, in order, with its config saying how many."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from training.stance import encoders


def _model(layers: int) -> SimpleNamespace:
    encoder = SimpleNamespace(layer=[f"layer {n}" for n in range(layers)])
    return SimpleNamespace(
        base_model=SimpleNamespace(encoder=encoder),
        config=SimpleNamespace(num_hidden_layers=layers),
    )


def test_a_cut_encoder_unpacks_the_weights_it_shares() -> None:
    cut = encoders.ENCODERS["mpnet4"]

    assert cut.unpacks == "mpnet"
    assert cut.layers == 4
    assert not cut.token_types
    assert encoders.ENCODERS["minilm"].unpacks == "minilm"
    assert encoders.ENCODERS["mpnet"].layers is None


def test_keeping_the_lower_layers_cuts_the_stack_from_the_top() -> None:
    model = _model(12)

    encoders.keep_lower_layers(model, 4)

    assert model.base_model.encoder.layer == ["layer 0", "layer 1", "layer 2", "layer 3"]
    assert model.config.num_hidden_layers == 4


@pytest.mark.parametrize("layers", [0, 13])
def test_a_cut_to_no_layers_or_more_than_there_are_is_refused(layers: int) -> None:
    model = _model(12)

    with pytest.raises(ValueError, match=f"cannot keep {layers} of 12 layers"):
        encoders.keep_lower_layers(model, layers)

    assert len(model.base_model.encoder.layer) == 12
    assert model.config.num_hidden_layers == 12
